"""Sweep parameter values and points: lists, inclusive ranges, zips, products."""

import pytest
from ackclock.errors import SweepError
from ackclock.sweeps.grid import Grid, parse_assignment, values_of
from ackclock.sweeps.scenario_base import parse_path, set_field
from ackclock.sweeps.script_base import parse_output


def test_a_range_includes_its_end_and_counts_81_values_for_0_400_5():
    values = values_of("delayB", "0:400:5")
    assert len(values) == 81
    assert values[:3] == [0, 5, 10] and values[-1] == 400
    assert all(isinstance(v, int) for v in values)


def test_a_decimal_range_steps_exactly():
    assert values_of("p", "0:1:0.1") == [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    assert values_of("p", "1:0:-0.5") == [1.0, 0.5, 0.0]


@pytest.mark.parametrize("spec", ["0:10:0", "10:0:1"])
def test_a_range_without_values_is_refused(spec):
    with pytest.raises(SweepError, match=f"the range {spec} has no values"):
        values_of("x", spec)


def test_list_items_become_numbers_booleans_or_text():
    assert values_of("x", "1Mb,2,0.5,true,reno") == ["1Mb", 2, 0.5, True, "reno"]
    assert values_of("x", [1, "a"]) == [1, "a"]
    assert values_of("x", range(3)) == [0, 1, 2]
    assert values_of("x", 7) == [7]


def test_an_assignment_needs_a_name_and_values():
    assert parse_assignment("bw=1Mb,2Mb") == ("bw", ["1Mb", "2Mb"])
    with pytest.raises(SweepError, match="is not NAME=VALUES"):
        parse_assignment("0:400:5")
    with pytest.raises(SweepError, match="an empty value"):
        parse_assignment("bw=1Mb,,2Mb")


def test_axes_are_crossed_with_the_last_fastest_and_zips_vary_together():
    grid = Grid.of({"a": [1, 2], "b": "x,y"}, [{"c": [10, 20], "d": ["p", "q"]}])
    points = grid.points()
    assert len(points) == 8
    assert points[0] == {"a": 1, "b": "x", "c": 10, "d": "p"}
    assert points[1] == {"a": 1, "b": "x", "c": 20, "d": "q"}
    assert points[2] == {"a": 1, "b": "y", "c": 10, "d": "p"}
    assert points[-1] == {"a": 2, "b": "y", "c": 20, "d": "q"}


def test_zipped_parameters_need_as_many_values():
    with pytest.raises(SweepError, match="c has 2, d has 3"):
        Grid.of(zips=[{"c": [1, 2], "d": [1, 2, 3]}])


def test_a_parameter_given_twice_is_refused():
    with pytest.raises(SweepError, match="'a' is given twice"):
        Grid.of({"a": [1]}, [{"a": [2]}])


def test_no_parameters_is_one_point():
    assert Grid.of().points() == [{}]


def test_field_paths_set_nested_values_and_create_tables():
    data = {"links": [{"bandwidth": "1Mb"}, {"bandwidth": "2Mb"}], "apps": [{"type": "tcp"}]}
    assert parse_path("links[1].bandwidth") == ["links", 1, "bandwidth"]
    set_field(data, "links[1].bandwidth", "4Mb")
    set_field(data, "apps[0].tcp.cc", "reno")
    assert data["links"][1]["bandwidth"] == "4Mb"
    assert data["apps"][0]["tcp"] == {"cc": "reno"}


def test_a_field_path_past_the_end_of_a_list_names_the_count():
    with pytest.raises(SweepError, match=r"links\[2\] does not exist \(the file has 2\)"):
        set_field({"links": [{}, {}]}, "links[2].delay", "1ms")
    with pytest.raises(SweepError, match="is not a field path"):
        parse_path("links[x].delay")


OUTPUT = """parameters: delayB=0.000000 overhead=0.002000 bottleneckBW=0.800000
0.000000 0.002000 14863 14771 1.000000 1.000000 1.006228 1.006228 1.006228
"""


def test_script_output_names_the_last_matching_line_and_skips_dashes():
    columns = ["-", "-", "recv0", "recv1", "-", "-", "-", "ratio1", "ratio2"]
    results = parse_output(OUTPUT, columns, ["delayB"])
    assert results == {
        "overhead": 0.002,
        "bottleneckBW": 0.8,
        "recv0": 14863,
        "recv1": 14771,
        "ratio1": 1.006228,
        "ratio2": 1.006228,
    }


def test_script_output_without_a_line_of_that_many_fields_is_an_error():
    with pytest.raises(ValueError, match="no line of the script's output has 2 fields"):
        parse_output(OUTPUT, ["a", "b"], [])
