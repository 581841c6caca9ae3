"""The games' data (card lists, tables, layouts), installed as the package ``admiralty_data``
(pyproject.toml maps this folder to it) and read with ``importlib.resources.files("admiralty_data")``,
so that a wheel carries it. Keep Python out of here: only this marker."""
