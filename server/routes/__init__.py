"""The service's routes, one router per area."""
