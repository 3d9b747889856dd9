"""Training the learned policy bot (``make_bot("policy", game)``).

- :mod:`vncards.learn.model`: the network's layout and weights as numpy arrays, a numpy forward
  pass, and the conversion to and from the Rust core's ``_core.PolicyNet`` (numpy only).
- :mod:`vncards.learn.train`: self-play training with deep Monte-Carlo on a CPU (JAX and optax,
  the ``train`` extra): what ``vncards train`` runs.

``import vncards.learn`` imports neither JAX nor numpy; playing the bot needs neither.
"""
