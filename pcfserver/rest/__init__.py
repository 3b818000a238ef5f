"""IBM MQ's messaging REST API as sans-IO application logic."""
