"""The API's routers, one per resource: service (health, metrics), rules, positions, games."""
