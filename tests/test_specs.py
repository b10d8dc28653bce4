"""Spec objects: the dicts they hand to the core, and their validation."""

import dataclasses

import ackclock as ac
import pytest
from ackclock.scenario import schema


def test_droptail_defaults_to_ns2_queue_of_50_packets():
    assert ac.DropTail().to_native() == {
        "type": "droptail",
        "limit": 50,
        "unit": "packets",
        "ns2_limit": False,
    }
    assert ac.DropTail(limit=None).to_native()["limit"] is None


def test_red_defaults_are_ns2s():
    assert ac.RED().to_native() == {
        "type": "red",
        "limit": 50,
        "unit": "packets",
        "ns2_limit": False,
        "min_th": 5.0,
        "max_th": 15.0,
        "max_p": 0.1,
        "weight": 0.002,
        "gentle": True,
        "ecn": False,
        "mean_packet_size": 500,
        "wait": False,
        "byte_mode": False,
        "mark_p": None,
        "ns2": False,
        "ns1_compat": False,
        "victim": "arrival",
    }


def test_loss_models_convert_to_native_dicts():
    assert ac.UniformLoss(0.01).to_native() == {"type": "uniform", "p": 0.01, "position": "wire"}
    assert ac.BitErrors(1e-5, position="queue").to_native() == {
        "type": "ber",
        "ber": 1e-5,
        "position": "queue",
    }
    assert ac.GilbertElliott(0.01, 0.2).to_native() == {
        "type": "gilbert_elliott",
        "p_good_to_bad": 0.01,
        "p_bad_to_good": 0.2,
        "loss_good": 0.0,
        "loss_bad": 1.0,
        "position": "wire",
    }
    assert ac.DropList([3, 5]).to_native() == {"type": "list", "drops": [3, 5], "position": "wire"}


def test_a_held_model_gives_its_delay_and_acts_only_at_the_link_head():
    held = ac.HeldAtHead(ac.DropList([2], position="queue"), "35ms")
    assert held.to_native() == {
        "type": "list",
        "drops": [2],
        "position": "queue",
        "delay_ps": 35_000_000_000,
    }
    with pytest.raises(ac.ConfigError, match="acts on the wire: give it position='queue'"):
        ac.HeldAtHead(ac.DropList([2]), 0.035).to_native()


def test_delays_and_sizes_convert_units():
    assert ac.ExponentialDelay("2ms", reorder=True).to_native() == {
        "type": "exponential",
        "mean_ps": 2 * 10**9,
        "reorder": True,
    }
    assert ac.UniformDelay(0, "1ms").to_native() == {
        "type": "uniform",
        "low_ps": 0,
        "high_ps": 10**9,
        "reorder": False,
    }
    assert ac.ExponentialSize("2KB").to_native() == {"type": "exponential", "mean_bytes": 2000.0}


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: ac.DropTail(limit=-1), "limit: -1 is not a queue limit"),
        (lambda: ac.DropTail(limit=2.5), "limit: 2.5 is not a queue limit"),
        (lambda: ac.DropTail(unit="pkts"), "unit: 'pkts' is not one of packets, bytes"),
        (lambda: ac.DropTail(ns2_limit="yes"), "ns2_limit: 'yes' is not a flag"),
        (lambda: ac.RED(min_th=20), "max_th: 15.0 is not a threshold: it must exceed min_th (20)"),
        (lambda: ac.RED(max_p=2), "max_p: 2 is not a probability"),
        (lambda: ac.UniformLoss(1.5), "p: 1.5 is not a probability"),
        (lambda: ac.UniformLoss(0.1, position="air"), "position: 'air' is not one of queue, wire"),
        (lambda: ac.BitErrors(-1e-6), "ber: -1e-06 is not a probability"),
        (lambda: ac.GilbertElliott(0.1, True), "p_bad_to_good: True is not a probability"),
        (lambda: ac.DropList([0]), "drops: 0 is not a packet number"),
        (lambda: ac.DropList("12"), "drops: '12' is not a list of packet numbers"),
        (lambda: ac.ExponentialDelay("-2ms"), "mean: '-2ms' is not a duration"),
        (
            lambda: ac.UniformDelay("2ms", "1ms"),
            "high: '1ms' is not a duration: it must be at least low",
        ),
        (lambda: ac.ExponentialSize(0), "mean: 0 is not a mean size"),
        (lambda: ac.LinkParams(bandwidth="fast"), "bandwidth: 'fast' is not a bandwidth"),
    ],
)
def test_invalid_specs_fail_on_construction_naming_field_and_value(make, message):
    with pytest.raises(ac.ConfigError) as caught:
        make()
    assert message in str(caught.value)


def test_specs_are_immutable_and_hashable():
    drops = ac.DropList([1, 2])
    assert drops.drops == (1, 2)
    assert hash(drops) == hash(ac.DropList((1, 2)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        drops.position = "queue"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del drops.position  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        drops.note = "not a field"  # type: ignore[attr-defined]


def test_specs_compare_by_class_and_fields_and_show_as_their_constructor_call():
    assert ac.DropTail(limit=5) == ac.DropTail(limit=5)
    assert ac.DropTail(limit=5) != ac.DropTail(limit=6)
    assert ac.UniformLoss(0.1) != ac.BitErrors(0.1)
    assert len({ac.DropTail(limit=5), ac.DropTail(limit=5), ac.DropTail()}) == 2
    assert repr(ac.DropTail(limit=5)) == "DropTail(limit=5, unit='packets', ns2_limit=False)"
    assert repr(ac.LinkParams(delay="5ms")) == "LinkParams(bandwidth=None, delay='5ms', queue=None)"


@pytest.mark.parametrize(
    "table",
    [
        schema.DropTailTable,
        schema.RedTable,
        schema.UniformLossTable,
        schema.BitErrorTable,
        schema.GilbertElliottTable,
        schema.DropListTable,
        schema.ExponentialDelayTable,
        schema.UniformDelayTable,
        schema.ExponentialSizeTable,
    ],
)
def test_scenario_tables_have_exactly_the_spec_fields(table):
    spec_fields = {field.name for field in dataclasses.fields(table.spec)}
    assert set(table.model_fields) - {"type"} == spec_fields
