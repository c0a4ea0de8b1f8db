"""The Avatar Duel played as *Avatar War* (R-X1, R-X2): techniques of pyramid pieces built in secret.

- `pieces`: pieces, techniques, the text form of a build and the checks on it (pure, no game);
- `exchange`: one attack against one defence — which piece stops which, damage, attrition (pure);
- `rules`: the duel's turn, its actions, hidden state and the per-player observation (`DuelRules`).
"""
