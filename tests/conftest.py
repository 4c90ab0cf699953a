"""The tests' root: the shared fixtures, hooks and tiers are the plugin's
(:mod:`tests.support.plugin`), the shared helpers the support package's."""

pytest_plugins = ["tests.support.plugin"]
