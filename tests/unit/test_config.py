"""The frozen, validated parameter object."""

from __future__ import annotations

import dataclasses

import pytest

from winnow.config import METHODS, WinnowConfig
from winnow.engine.selectors import SELECTORS, optimal_safe_p, selector_for
from winnow.errors import InvalidConfig


def test_window_is_derived_from_k_and_t() -> None:
    config = WinnowConfig(k=50, t=149)
    assert config.w == 100
    assert config.as_dict()["w"] == 100


def test_config_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        WinnowConfig().k = 3  # type: ignore[misc]


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(InvalidConfig) as caught:
        WinnowConfig(k=0, t=-1, method="nope", p=0)
    problems = caught.value.problems
    assert any("k (noise threshold) must be >= 1" in p for p in problems)
    assert any("t (guarantee threshold) must be >= k" in p for p in problems)
    assert any("method must be one of" in p for p in problems)
    assert any(p.startswith("p must be") for p in problems)


def test_t_equal_to_k_is_a_window_of_one() -> None:
    assert WinnowConfig(k=5, t=5).w == 1


@pytest.mark.parametrize(
    ("method", "expected"),
    [("mod-p", {"p": 50}), ("safe-mod-p", {"p": optimal_safe_p(100)}),
     ("sif", {"bits": 8, "k": 50}), ("bottom-n", {"n": 100}), ("winnow", {})],
)
def test_method_defaults(method: str, expected: dict[str, int]) -> None:
    assert selector_for(WinnowConfig(method=method)).params() == expected


def test_the_config_names_every_registered_selector() -> None:
    assert tuple(SELECTORS) == METHODS
    for cls in SELECTORS.values():  # every parameter a selector reads is a config field
        assert set(cls.takes) <= {f.name for f in dataclasses.fields(WinnowConfig)}


def test_anchors_need_anchors_and_survive_the_round_trip() -> None:
    with pytest.raises(InvalidConfig, match="needs at least one anchor"):
        WinnowConfig(method="anchors")
    config = WinnowConfig(method="anchors", anchors=["th", "ab"])  # type: ignore[arg-type]
    assert config.anchors == ("th", "ab")
    assert config.as_dict()["anchors"] == ["th", "ab"]
    assert "anchors" not in WinnowConfig().as_dict()


def test_optimal_safe_p_is_w_over_ln_w() -> None:
    assert optimal_safe_p(100) == 22
