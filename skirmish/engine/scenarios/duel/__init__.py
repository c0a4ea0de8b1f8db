"""The Avatar Duel played as *Avatar War* (R-X1, R-X2): techniques of pyramid pieces built in secret.

- `pieces`: pieces, techniques, the text form of a build and the checks on it (pure, no game);
- `exchange`: one attack against one defence — which piece stops which, damage, attrition (pure);
- `templates`: build shapes in element rotations, the candidates bots and the window offer (pure);
- `base`: the duel's settings, its state and the per-player observation; `build`: the build step;
  `round`: the round of attacks; `rules`: `DuelRules`, the duel's turn and its hooks.
"""
