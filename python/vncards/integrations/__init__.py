"""Learning environments for the five games.

- :mod:`vncards.integrations.encoding`: observation vectors and per-action card features
  (numpy, built in Rust), the same for every framework.
- :mod:`vncards.integrations.spaces`: the action bounds and the legal-action lists an action
  index points into.
- :mod:`vncards.integrations.deals`: a game started from given hands, validated.
- :mod:`vncards.integrations.pettingzoo`: PettingZoo ``AECEnv`` per variant (extra
  ``pettingzoo``).
- :mod:`vncards.integrations.openspiel`: OpenSpiel Python games (extra ``openspiel``), from a
  chance deal or from given hands.

The framework modules import their framework lazily: ``import vncards`` pulls neither.
"""
