# A second, independent CFR+ on Leduc hold'em, written from the rules and
# the algorithm, not from match's code, to check match.NewSolver's
# iterates (TestSolveLeducAgainstSecondImplementation reads its output,
# leduc_cfrplus.txt).
#
# Rules: OpenSpiel's leduc_poker with its defaults: 6 cards (3 ranks, 2
# suits), ante 1, raises of 2 in the first round and 4 in the second, at
# most two raises a round, fold only when facing a bet; the public card is
# dealt from the 4 left; a pair with it beats any high card, else the
# higher rank wins, equal ranks split. An information set is the seat,
# its card, the public card once dealt and both rounds' actions (suits
# distinct: 936 sets).
# CFR+: regret matching+, alternating updates (seat 0's walk, its regrets
# floored at 0 and its strategy updated, then seat 1's), linear averaging
# (iteration t adds t x own reach x strategy), as OpenSpiel's
# CFRPlusSolver. Exploitability: (BR0 + BR1) / 2 of the average strategy.
#
# It prints "iteration exploitability" at the iterations listed, and the
# tree's size and the uniform policy's exploitability (2.373611, OpenSpiel's
# figure) on stderr. leduc_cfrplus.txt is, after its first line (the
# command, as a # comment), the output of
#
#   python3 match/testdata/leduc_cfrplus.py 1,2,3,5,10,20,50,100,110,115,120,125,128,129,130
import sys
RAISE = [2, 4]
CARDS = list(range(6))  # rank = c // 2
def rank(c): return c // 2

nodes = []  # each: [kind, player, info, kids, probs, pay0]
def add(kind, player=-1, info=None, pay0=0.0):
    nodes.append([kind, player, info, [], [], pay0]); return len(nodes) - 1

def showdown(c0, c1, pub, contrib):
    # pair beats high card; else higher rank; equal split
    s0 = (1 if rank(c0) == rank(pub) else 0, rank(c0))
    s1 = (1 if rank(c1) == rank(pub) else 0, rank(c1))
    if s0 > s1: return float(contrib[1])
    if s1 > s0: return -float(contrib[0])
    return 0.0

def betting(cards, pub, rnd, hist, contrib, player, raises, nacts, hists):
    # hists: tuple of round histories so far (strings)
    n = add('p', player, (player, cards[player], pub, hists + (hist,)))
    facing = contrib[1 - player] > contrib[player]
    acts = []
    if facing: acts.append('f')
    acts.append('c')
    if raises < 2: acts.append('r')
    for a in acts:
        if a == 'f':
            k = add('t', pay0=(-float(contrib[0]) if player == 0 else float(contrib[1])))
        elif a == 'c':
            nc = list(contrib); nc[player] = contrib[1 - player]
            if nacts >= 1:  # round ends (check-check or call of a bet)
                if rnd == 0:
                    k = add('c')
                    rest = [c for c in CARDS if c not in cards]
                    for pc in rest:
                        kk = betting(cards, pc, 1, '', nc, 0, 0, 0, hists + (hist + 'c',))
                        nodes[k][3].append(kk); nodes[k][4].append(1.0 / len(rest))
                else:
                    k = add('t', pay0=showdown(cards[0], cards[1], pub, nc))
            else:
                k = betting(cards, pub, rnd, hist + 'c', nc, 1 - player, raises, nacts + 1, hists)
        else:
            nc = list(contrib); nc[player] = contrib[1 - player] + RAISE[rnd]
            k = betting(cards, pub, rnd, hist + 'r', nc, 1 - player, raises + 1, nacts + 1, hists)
        nodes[n][3].append(k); nodes[n][4].append(a)
    return n

root = add('c')
deals = [(a, b) for a in CARDS for b in CARDS if a != b]
for d in deals:
    k = betting(d, None, 0, '', [1, 1], 0, 0, 0, ())
    nodes[root][3].append(k); nodes[root][4].append(1.0 / len(deals))

# information sets
infos = {}
for n in nodes:
    if n[0] == 'p':
        n[2] = infos.setdefault(n[2], len(infos))
        n.append(len(n[3]))
print('nodes', len(nodes), 'infosets', len(infos), file=sys.stderr)
NI = len(infos)
nact = [0] * NI; iplayer = [0] * NI
for n in nodes:
    if n[0] == 'p': nact[n[2]] = len(n[3]); iplayer[n[2]] = n[1]
regret = [[0.0] * nact[i] for i in range(NI)]
cum = [[0.0] * nact[i] for i in range(NI)]
cur = [[1.0 / nact[i]] * nact[i] for i in range(NI)]

def rmplus(i):
    r = regret[i]; s = sum(x for x in r if x > 0)
    cur[i] = [(x / s if x > 0 else 0.0) for x in r] if s > 0 else [1.0 / len(r)] * len(r)

sys.setrecursionlimit(10000)
def walk(n, p, ro, rq, t):
    kind, pl, info, kids, probs, pay0 = nodes[n][:6]
    if kind == 't': return pay0 if p == 0 else -pay0
    if kind == 'c':
        return sum(pr * walk(k, p, ro, rq * pr, t) for k, pr in zip(kids, probs))
    if ro == 0 and rq == 0: return 0.0
    st = cur[info]
    vals = []
    for a, k in enumerate(kids):
        if pl == p: vals.append(walk(k, p, ro * st[a], rq, t))
        else: vals.append(walk(k, p, ro, rq * st[a], t))
    v = sum(s * x for s, x in zip(st, vals))
    if pl == p:
        r = regret[info]; c = cum[info]
        for a in range(len(kids)):
            r[a] += rq * (vals[a] - v)
            c[a] += t * ro * st[a]
    return v

def avg():
    out = []
    for i in range(NI):
        s = sum(cum[i])
        out.append([x / s for x in cum[i]] if s > 0 else [1.0 / nact[i]] * nact[i])
    return out

def br_value(p, pol):
    # best response of p against pol for the other seat; value for p.
    # group p's nodes by infoset with their opponent*chance reach
    members = {}
    def reach(n, rq):
        kind, pl, info, kids, probs = nodes[n][:5]
        if kind == 't': return
        if kind == 'c':
            for k, pr in zip(kids, probs): reach(k, rq * pr)
            return
        if pl == p:
            members.setdefault(info, []).append((n, rq))
            for k in kids: reach(k, rq)
        else:
            for a, k in enumerate(kids): reach(k, rq * pol[info][a])
    reach(0, 1.0)
    best = {}
    memo = {}
    def val(n):
        if n in memo: return memo[n]
        kind, pl, info, kids, probs, pay0 = nodes[n][:6]
        if kind == 't': v = pay0 if p == 0 else -pay0
        elif kind == 'c': v = sum(pr * val(k) for k, pr in zip(kids, probs))
        elif pl == p: v = val(kids[choose(info)])
        else: v = sum(pol[info][a] * val(k) for a, k in enumerate(kids))
        memo[n] = v; return v
    def choose(info):
        if info not in best:
            ms = members[info]
            na = nact[info]
            q = [sum(rq * val(nodes[n][3][a]) for n, rq in ms) for a in range(na)]
            best[info] = max(range(na), key=lambda a: q[a])
        return best[info]
    return val(0)

def exploitability():
    pol = avg()
    return (br_value(0, pol) + br_value(1, pol)) / 2

uni = [[1.0 / nact[i]] * nact[i] for i in range(NI)]
print('uniform exploitability', (br_value(0, uni) + br_value(1, uni)) / 2, file=sys.stderr)
marks = set(map(int, sys.argv[1].split(','))) if len(sys.argv) > 1 else set()
last = max(marks) if marks else 0
for t in range(1, last + 1):
    for p in (0, 1):
        walk(0, p, 1.0, 1.0, t)
        for i in range(NI):
            if iplayer[i] == p:
                regret[i] = [max(x, 0.0) for x in regret[i]]
                rmplus(i)
    if t in marks:
        print(t, repr(exploitability()), flush=True)
