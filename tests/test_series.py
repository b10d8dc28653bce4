"""The pure time-series helpers: long format, CSV text, values at a time,
sawtooth peaks."""

from ackclock import series

SERIES = {
    "cwnd": ([0.0, 1.0, 2.0, 3.0], [2000.0, 4000.0, 6000.0, 3000.0]),
    "loss_events": ([0.0, 3.0], [0.0, 1.0]),
}


def test_rows_merge_variables_in_time_order_keeping_variable_order_at_ties():
    assert series.rows(SERIES) == [
        (0.0, "cwnd", 2000.0),
        (0.0, "loss_events", 0.0),
        (1.0, "cwnd", 4000.0),
        (2.0, "cwnd", 6000.0),
        (3.0, "cwnd", 3000.0),
        (3.0, "loss_events", 1.0),
    ]


def test_csv_writes_whole_numbers_without_a_fraction_and_others_exactly():
    text = series.to_csv([(0.0, "cwnd", 1920.0), (0.120864, "srtt", 0.12), (1.5, "x", 0.1 + 0.2)])
    assert (
        text
        == "time_s,variable,value\n0,cwnd,1920\n0.120864,srtt,0.12\n1.5,x,0.30000000000000004\n"
    )


def test_with_segments_adds_cwnd_in_segments_after_cwnd():
    extended = series.with_segments(SERIES, mss=1000)
    assert list(extended) == ["cwnd", "cwnd_segments", "loss_events"]
    assert extended["cwnd_segments"] == ([0.0, 1.0, 2.0, 3.0], [2.0, 4.0, 6.0, 3.0])


def test_value_before_is_the_value_held_just_before_a_time():
    assert series.value_before(SERIES, "cwnd", 0.0) is None
    assert series.value_before(SERIES, "cwnd", 2.0) == 4000.0
    assert series.value_before(SERIES, "cwnd", 2.5) == 6000.0


def test_loss_peaks_are_the_values_before_each_new_loss_event():
    assert series.loss_peaks(SERIES, "cwnd") == [6000.0]  # the count's first point is no loss
    assert series.loss_peaks(SERIES, "cwnd", after=3.5) == []


def test_csv_file_names_replace_unsafe_characters():
    assert series.csv_file_name("reno") == "series-reno.csv"
    assert series.csv_file_name("a/b c") == "series-a_b_c.csv"
