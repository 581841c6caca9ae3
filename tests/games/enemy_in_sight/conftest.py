"""The loopback-Discord driver of tests/e2e, re-used for the Enemy in Sight harness test."""

from tests.e2e.conftest import driver  # noqa: F401
