"""Keyword lists of the fast-path languages (kept distinct in the token stream).

Words not listed are identifiers and collapse to one symbol.  Primitive type
names that the language reserves are keywords; predeclared but rebindable names
(Go's ``int``, Python's ``print``) are identifiers.
"""

from __future__ import annotations

import keyword

_C = """auto break case char const continue default do double else enum extern float for goto
if inline int long register restrict return short signed sizeof static struct switch typedef
union unsigned void volatile while _Bool _Complex _Imaginary _Alignas _Alignof _Atomic
_Generic _Noreturn _Static_assert _Thread_local bool true false NULL"""

_CPP = _C + """ alignas alignof and and_eq asm bitand bitor catch char8_t char16_t char32_t class
compl concept consteval constexpr constinit const_cast co_await co_return co_yield decltype
delete dynamic_cast explicit export friend mutable namespace new noexcept not not_eq nullptr
operator or or_eq private protected public reinterpret_cast requires static_assert
static_cast template this thread_local throw try typeid typename using virtual wchar_t xor
xor_eq override final"""

_JAVA = """abstract assert boolean break byte case catch char class const continue default do
double else enum extends final finally float for goto if implements import instanceof int
interface long native new package private protected public return short static strictfp super
switch synchronized this throw throws transient try void volatile while true false null var
record yield sealed permits non"""

_CSHARP = """abstract as base bool break byte case catch char checked class const continue
decimal default delegate do double else enum event explicit extern false finally fixed float
for foreach goto if implicit in int interface internal is lock long namespace new null object
operator out override params private protected public readonly ref return sbyte sealed short
sizeof stackalloc static string struct switch this throw true try typeof uint ulong unchecked
unsafe ushort using virtual void volatile while var async await"""

_JS = """break case catch class const continue debugger default delete do else export extends
false finally for function if import in instanceof new null return super switch this throw
true try typeof var void while with yield let static async await of undefined"""

_TS = _JS + """ abstract any as boolean declare enum implements interface keyof namespace never
number private protected public readonly string symbol type unknown"""

_GO = """break case chan const continue default defer else fallthrough for func go goto if
import interface map package range return select struct switch type var true false nil"""

_RUST = """as async await break const continue crate dyn else enum extern false fn for if impl
in let loop match mod move mut pub ref return self Self static struct super trait true type
unsafe use where while i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char
str"""

_KOTLIN = """as break class continue do else false for fun if in interface is null object
package return super this throw true try typealias typeof val var when while by catch
constructor finally get import init set where abstract data enum open override private
protected public internal sealed companion lateinit suspend inline"""

_SCALA = """abstract case catch class def do else extends false final finally for forSome if
implicit import lazy match new null object override package private protected return sealed
super this throw trait try true type val var while with yield given using then enum export"""

_SWIFT = """associatedtype class deinit enum extension fileprivate func import init inout
internal let open operator private protocol public rethrows static struct subscript typealias
var break case continue default defer do else fallthrough for guard if in repeat return switch
where while as Any catch false is nil super self Self throw throws true try await async"""

_DART = """abstract as assert async await break case catch class const continue covariant
default deferred do dynamic else enum export extends extension external factory false final
finally for get if implements import in interface is late library mixin new null on operator
part required rethrow return set show static super switch sync this throw true try typedef
var void while with yield"""

KEYWORDS: dict[str, frozenset[str]] = {
    "python": frozenset(keyword.kwlist),
    "c": frozenset(_C.split()),
    "cpp": frozenset(_CPP.split()),
    "java": frozenset(_JAVA.split()),
    "csharp": frozenset(_CSHARP.split()),
    "javascript": frozenset(_JS.split()),
    "typescript": frozenset(_TS.split()),
    "go": frozenset(_GO.split()),
    "rust": frozenset(_RUST.split()),
    "kotlin": frozenset(_KOTLIN.split()),
    "scala": frozenset(_SCALA.split()),
    "swift": frozenset(_SWIFT.split()),
    "dart": frozenset(_DART.split()),
}
