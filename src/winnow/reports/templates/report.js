// winnow HTML report: link each passage to its counterpart in the other pane.
// Reads only numbers from data-* attributes that the report generator wrote; never
// inserts markup (no innerHTML), so nothing from a submission can become code.
(function () {
  "use strict";
  var NUMBER = /^[0-9]+$/;

  function passageOf(el) {
    var first = (el.getAttribute("data-p") || "").split(" ")[0];
    return NUMBER.test(first) ? first : null;
  }

  function blocksOf(root, k) {
    return root.querySelectorAll('.blk[data-p~="' + k + '"]');
  }

  function highlight(pair, k) {
    var old = pair.querySelectorAll(".blk.on");
    for (var i = 0; i < old.length; i++) { old[i].classList.remove("on"); }
    var now = blocksOf(pair, k);
    for (var j = 0; j < now.length; j++) { now[j].classList.add("on"); }
  }

  // Scroll `pane` (and only it) so that `el` sits a quarter down its viewport.
  function reveal(pane, el) {
    if (!pane || !el) { return; }
    var head = pane.querySelector(".fname");
    var offset = head ? head.offsetHeight : 0;
    var delta = el.getBoundingClientRect().top - pane.getBoundingClientRect().top;
    pane.scrollTop = Math.max(0, pane.scrollTop + delta - offset - pane.clientHeight / 4);
  }

  function jump(pair, k, sides) {
    highlight(pair, k);
    for (var i = 0; i < sides.length; i++) {
      var pane = pair.querySelector('.pane[data-side="' + sides[i] + '"]');
      if (pane) { reveal(pane, blocksOf(pane, k)[0]); }
    }
  }

  function activate(target) {
    var pair = target.closest(".pair");
    if (!pair) { return false; }
    var blk = target.closest(".blk[data-p]");
    if (blk) {
      var k = passageOf(blk);
      var pane = blk.closest(".pane");
      if (k === null || !pane) { return false; }
      jump(pair, k, [pane.getAttribute("data-side") === "a" ? "b" : "a"]);
      return true;
    }
    var row = target.closest("[data-jump]");
    if (row) {
      var n = row.getAttribute("data-jump");
      if (NUMBER.test(n)) { jump(pair, n, ["a", "b"]); return true; }
    }
    return false;
  }

  document.addEventListener("click", function (ev) {
    if (window.getSelection && String(window.getSelection()).length > 0) { return; }
    activate(ev.target);
  });
  document.addEventListener("keydown", function (ev) {
    if ((ev.key === "Enter" || ev.key === " ") && activate(ev.target)) { ev.preventDefault(); }
  });
})();
