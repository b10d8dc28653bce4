"""Scenario files: TOML describing a network and its traffic (see
docs/scenario-format.md), validated and built through the Python API."""

from ackclock.scenario.load import Scenario, load_scenario, scenario_from_data

__all__ = ["Scenario", "load_scenario", "scenario_from_data"]
