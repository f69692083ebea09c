# The expected numbers of plackett_luce_test.cc: Weng & Lin (2011)
# Algorithm 4 (Plackett-Luce) with OpenSkill's defaults, written from the
# formulas in plackett_luce.h, independently of the C++ code.
#   /usr/bin/python3 ladder/rating/plackett_luce_reference.py
# prints each case's (mu, sigma) per player; --json prints cases and results
# for a check against another implementation (openskill.js's `rate` agreed
# to 4e-15).
import math, json, sys

def rate(teams, ranks, beta=25/6, kappa=1e-4, tau=25/300):
    teams = [[(mu, math.sqrt(s*s + tau*tau)) for mu, s in t] for t in teams]
    k = len(teams)
    tmu = [sum(mu for mu, _ in t) for t in teams]
    tvar = [sum(s*s for _, s in t) for t in teams]
    c = math.sqrt(sum(v + beta*beta for v in tvar))
    e = [math.exp(m / c) for m in tmu]
    S = [sum(e[s] for s in range(k) if ranks[s] >= ranks[q]) for q in range(k)]
    A = [sum(1 for s in range(k) if ranks[s] == ranks[q]) for q in range(k)]
    out = []
    for i in range(k):
        om = de = 0.0
        for q in range(k):
            if ranks[q] <= ranks[i]:
                p = e[i] / S[q]
                om += ((1.0 if q == i else 0.0) - p) / A[q]
                de += p * (1 - p) / A[q]
        om *= tvar[i] / c
        de *= (math.sqrt(tvar[i]) / c) * tvar[i] / (c*c)
        out.append([(mu + s*s/tvar[i]*om, s*math.sqrt(max(1 - s*s/tvar[i]*de, kappa))) for mu, s in teams[i]])
    return out

D = 25/3
cases = {
  "two_players_default_tau": ([[(25, D)], [(25, D)]], [1, 2], 25/300),
  "two_players_no_tau": ([[(25, D)], [(25, D)]], [1, 2], 0.0),
  "upset_no_tau": ([[(20, 3)], [(30, 2)]], [1, 2], 0.0),
  "four_free_for_all": ([[(27, 5)], [(22, 7)], [(31, 3)], [(25, D)]], [2, 1, 4, 3], 0.0),
  "three_with_tie": ([[(25, D)], [(28, 4)], [(20, 6)]], [1, 1, 2], 0.0),
  "two_teams": ([[(26, 4), (24, 6)], [(30, 3), (18, 8)]], [1, 2], 25/300),
  "five_with_ties": ([[(25, 6)], [(27, 5)], [(23, 7)], [(30, 3)], [(20, 8)]], [3, 1, 2, 3, 2], 0.0),
}
res = {name: rate(t, r, tau=tau) for name, (t, r, tau) in cases.items()}
if "--json" in sys.argv:
    print(json.dumps({n: {"teams": [[list(p) for p in t] for t in cases[n][0]], "ranks": cases[n][1], "tau": cases[n][2], "out": [[list(p) for p in t] for t in o]} for n, o in res.items()}))
else:
    for n, o in res.items():
        print(n, ["(%.12f, %.12f)" % p for t in o for p in t])
