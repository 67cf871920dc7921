"""A round of the free-spins ladder with local pots, exactly: the main-game spin, the
free-spins ladder, the pots' memory within the round, and the carried meter between rounds.

The state and its stationary law
--------------------------------
Between rounds a player carries, per bet size, the meter (0 to ``spots``) and for each reel ``i`` a
pot and its hidden trigger point. Write ``K_i = last_i - seed_i``, the number of trigger points a
reset draws from (``last_i``, the largest pot it can be won at, is one bet below the cap: every
pot is won before its cap, ``Jackpot.last_trigger``). The pot's *age* (gems since
its last reset) follows a Markov chain driven only by the gems landing on reel ``i``: a gem at
age ``j`` hits with probability ``1 / (K_i - j)`` (the trigger is uniform on the ages still
possible) and pays ``seed_i + j + 1``; the hits form a renewal sequence, in that reel's gem
count, whose gaps are uniform on ``1..K_i``. The trigger draws are independent of the reel
stops, and hits change neither the bonus symbols nor the gems that land, so

* the meter is a function of the reel stops alone (a 6-state Markov chain over rounds);
* each pot is a function of its own gem count and trigger draws;
* in the long run (the stationary law ``pi``) the meter and the five pots are independent;
  each pot's (pot, trigger) pair is uniform on ``seed <= pot < trigger <= last`` (its age is
  ``j`` with probability proportional to ``K - j``), and given the stops of any number of
  spins the pots stay independent and each gem hits with probability ``q_i = 2 / (K_i + 1)``.

Per-round moments
-----------------
``X`` is the win of one round (main spin, then its free spins; line wins times the level's
multiplier plus jackpots) per unit bet. Its *per-round* moments are those of a round played
from a state drawn from ``pi`` -- equivalently, by ergodicity, the long-run frequencies of the
round wins of one player: ``E_pi[X]`` (the RTP), ``E_pi[X^2]``, the standard deviation
``sqrt(E_pi[X^2] - E_pi[X]^2)`` (the volatility figures use it, as for every catalogue title), the
hit frequency ``P_pi(X > 0)``.

Within a round the gems of one reel are consecutive gems of that pot, so their outcomes are
*not* independent (a hit resets the pot; the next gem is less likely to hit). The round's
second moment is therefore computed in two exact parts:

1. As if every gem's outcome were drawn independently from its long-run law: a Markov reward
   process over the ladder state (level, spins left, meter, unlocked level) with the per-spin
   moments of :mod:`reelsmith.analysis.ladder_spin`, jointly with the bonus count that moves
   the ladder.
2. The correction for the pots' memory. Given the reel stops of the round, the five pots are
   independent; the Hoeffding decomposition of each spin's win over them gives
   ``Cov(T_s, T_s' | stops) = sum over reel sets A of the product over A of renewal
   covariances``. For one reel and gems ``d`` apart in its gem count: ``Cov(h_0, h_d) =
   q (u(d) - q)``, with the renewal probabilities ``u`` of the uniform gaps, and similarly for
   the amounts won. A forward pass over the ladder carries, per reel (and per pair of reels),
   the spins' coefficients with the number of gems since. Terms over three or more reels are
   not computed; a bound on their size is reported (below 1e-9 of the second moment).

The no-win probability uses the same independence given the stops: the probability that none
of ``n`` consecutive gems of a pot hits, from the stationary law, is
``(K - n)(K - n + 1) / (K (K + 1))``, a quadratic in ``n`` (for ``n <= K + 1``), so the round
carries, per reel, the gem count's first two factorial moments (a 3^5 vector per ladder
state). Rounds with more than ``K + 1`` gems on one reel would break the quadratic; their
probability is bounded and reported.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.ladder_spin import SpinFigures
from reelsmith.engine.features.ladder_steps import advance, collect, fill_spot, start_ladder
from reelsmith.engine.ladder import LadderRules

State = tuple[int, int, int, int]  # (level, spins left, meter, unlocked)
END = -1


# ---------------------------------------------------------------------------------------
# The pots: renewal sequences with gaps uniform on 1..K
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Renewal:
    """One pot's hits as a renewal sequence in its gem count (gaps uniform on 1..K)."""

    seed: int
    last: int  # the largest trigger point (bets)
    u: npt.NDArray[np.float64]  # u[d] = P(hit at gem d | hit at gem 0)
    r: npt.NDArray[np.float64]  # r[d] = E[amount won at gem d; hit | hit at gem 0]

    @property
    def k(self) -> int:
        return self.last - self.seed

    @property
    def q(self) -> float:
        return 2.0 / (self.k + 1)

    @property
    def mean_award(self) -> float:
        """E[pot won | hit] (bets): ``seed + (K + 1) / 2``."""
        return self.seed + (self.k + 1) / 2

    @property
    def award_second_moment(self) -> float:
        k = self.k
        return sum((self.seed + g) ** 2 for g in range(1, k + 1)) / k

    def c_hh(self, d: int) -> float:
        """Cov(h_0, h_d)."""
        return float(self.q * (self.u[d] - self.q))

    def c_h_ha(self, d: int) -> float:
        """Cov(h_0, h_d a_d)."""
        return float(self.q * self.r[d] - self.q * self.q * self.mean_award)

    def c_ha_h(self, d: int) -> float:
        """Cov(h_0 a_0, h_d): given a hit, the future does not depend on the amount."""
        return float(self.q * self.mean_award * (self.u[d] - self.q))

    def c_ha_ha(self, d: int) -> float:
        return float(self.q * self.mean_award * (self.r[d] - self.q * self.mean_award))

    def survival(self, n: int) -> float:
        """P(none of n consecutive gems hits) from the stationary law."""
        k = self.k
        if n > k:
            return 0.0
        return (k - n) * (k - n + 1) / (k * (k + 1))


@njit(cache=True, nogil=True)
def _renewal_sums(
    seed: int, k: int, u: npt.NDArray[np.float64], r: npt.NDArray[np.float64]
) -> None:
    u[0] = 1.0
    s0 = 0.0
    s1 = 0.0
    for d in range(1, u.shape[0]):
        old = u[d - 1 - k] if d - 1 - k >= 0 else 0.0
        s1 = s1 + u[d - 1] + s0 - (k + 1) * old
        s0 = s0 + u[d - 1] - old
        u[d] = s0 / k
        r[d] = (seed * s0 + s1) / k


def renewal(seed: int, last: int, horizon: int) -> Renewal:
    """Renewal probabilities up to ``horizon`` gems, by running sums (linear in the horizon):
    ``u[d] = S0[d] / K`` and ``r[d] = (seed S0[d] + S1[d]) / K`` with
    ``S0[d] = sum_{g=1..K} u[d-g]`` and ``S1[d] = sum_{g=1..K} g u[d-g]``."""
    u = np.zeros(horizon + 1)
    r = np.zeros(horizon + 1)
    _renewal_sums(seed, last - seed, u, r)
    return Renewal(seed, last, u, r)


# ---------------------------------------------------------------------------------------
# The ladder
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ladder:
    """The free-spins ladder's rules as a state machine, on the transitions live play and the
    kernel call (:mod:`reelsmith.engine.features.ladder_steps`)."""

    rules: LadderRules

    @property
    def spots(self) -> int:
        return self.rules.spots

    def start(self, meter: int) -> State:
        """The free spins' first state for a trigger with the meter as carried."""
        unlocked, meter = start_ladder(meter, self.spots)
        return (1, self.rules.spins_per_level, meter, unlocked)

    def step(self, state: State, bonus: int) -> State:
        """After a free spin showing ``bonus`` symbols; ``(END, meter, 0, 0)`` when over."""
        level, left, meter, unlocked = state
        meter, unlocked = collect(meter, unlocked, bonus, self.spots, self.rules.levels)
        level, left, over = advance(level, left, unlocked, self.rules.spins_per_level)
        if over:
            return (END, meter, 0, 0)
        return (level, left, meter, unlocked)

    def main_meter(self, meter: int, bonus: int) -> int:
        """The meter after a main-game spin without a trigger."""
        if bonus == self.rules.main_game_bonus_per_spot:
            return int(fill_spot(meter, self.spots))
        return meter

    def played(self, state: State) -> int:
        """Free spins played before reaching ``state`` (a topological order)."""
        return (state[0] - 1) * self.rules.spins_per_level + self.rules.spins_per_level - state[1]


@dataclass(frozen=True, eq=False)
class LadderGraph:
    """Every ladder state reachable from any trigger, in the order spins are played, with its
    successor per bonus count (-1: the free spins end, with the meter ``end_meter``)."""

    states: tuple[State, ...]
    index: dict[State, int]
    successor: npt.NDArray[np.int64]  # [state, bonus]
    end_meter: npt.NDArray[np.int64]  # [state, bonus]
    multiplier: npt.NDArray[np.float64]  # [state]
    level: npt.NDArray[np.int64]  # [state], 1-based
    starts: npt.NDArray[np.int64]  # [carried meter]: the first state

    @classmethod
    def build(cls, ladder: Ladder, bonus_values: int) -> LadderGraph:
        rules = ladder.rules
        starts = [ladder.start(m) for m in range(rules.spots + 1)]
        seen = set(starts)
        frontier = list(starts)
        while frontier:
            nxt = []
            for state in frontier:
                for b in range(bonus_values):
                    after = ladder.step(state, b)
                    if after[0] != END and after not in seen:
                        seen.add(after)
                        nxt.append(after)
            frontier = nxt
        states = tuple(sorted(seen, key=lambda x: (ladder.played(x), x)))
        index = {x: i for i, x in enumerate(states)}
        successor = np.full((len(states), bonus_values), -1, dtype=np.int64)
        end_meter = np.full((len(states), bonus_values), -1, dtype=np.int64)
        for i, state in enumerate(states):
            for b in range(bonus_values):
                after = ladder.step(state, b)
                if after[0] == END:
                    end_meter[i, b] = after[1]
                else:
                    successor[i, b] = index[after]
        return cls(
            states,
            index,
            successor,
            end_meter,
            np.array([rules.multipliers[x[0] - 1] for x in states], dtype=np.float64),
            np.array([x[0] for x in states], dtype=np.int64),
            np.array([index[x] for x in starts], dtype=np.int64),
        )


@dataclass(frozen=True)
class FreeSpinsMoments:
    """From each ladder state to the end of the free spins (arrays indexed by state).

    ``win_sq`` treats every gem's outcome as independent (the pots' memory is the separate
    term of :meth:`RoundAnalysis.memory_correction`)."""

    win: npt.NDArray[np.float64]  # E[F]
    win_sq: npt.NDArray[np.float64]  # E[F^2]
    end_meter: npt.NDArray[np.float64]  # [state, m]: P(end meter = m)
    win_end: npt.NDArray[np.float64]  # [state, m]: E[F 1{end meter = m}]
    spins: npt.NDArray[np.float64]
    level_spins: npt.NDArray[np.float64]  # [state, level]: expected spins played at the level
    multiplier_sum: npt.NDArray[np.float64]
    beta_sum: npt.NDArray[np.float64]  # [state, reel]: E[sum of m beta_i 1{gem}]
    gems: npt.NDArray[np.float64]  # [state, reel]: expected gems


def spin_moments(
    spin: SpinFigures, multiplier: float
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """E[T; b] and E[T^2; b] of one spin's win ``T = m L + J`` (each gem independent)."""
    m = multiplier
    first = m * spin.line + spin.jackpot
    second = m * m * spin.line_sq + 2 * m * spin.line_jackpot + spin.jackpot_sq
    return first, second


def free_spins_moments(
    graph: LadderGraph, free: SpinFigures, levels: int, spots: int
) -> FreeSpinsMoments:
    """Backward over the ladder: first and second moments of the free spins' win, the meter
    they end with, spins per level, and the expected coefficients of the memory terms."""
    n = len(graph.states)
    spots += 1  # meter values 0..spots
    reels = free.gem.shape[0]
    p = free.probability
    bonus_values = graph.successor.shape[1]
    win = np.zeros(n)
    win_sq = np.zeros(n)
    end = np.zeros((n, spots))
    win_end = np.zeros((n, spots))
    spins = np.zeros(n)
    level_spins = np.zeros((n, levels))
    mult = np.zeros(n)
    beta_sum = np.zeros((n, reels))
    gems = np.zeros((n, reels))
    beta_spin = free.beta.sum(axis=1)
    gem_spin = free.gem.sum(axis=1)
    for s in range(n - 1, -1, -1):
        m = graph.multiplier[s]
        t1, t2 = spin_moments(free, m)
        level_spins[s, graph.level[s] - 1] = 1.0
        spins[s] = 1.0
        mult[s] = m
        beta_sum[s] = m * beta_spin
        gems[s] = gem_spin
        for b in range(bonus_values):
            if p[b] == 0.0:
                continue
            win[s] += t1[b]
            win_sq[s] += t2[b]
            t = graph.successor[s, b]
            if t < 0:
                end[s, graph.end_meter[s, b]] += p[b]
                win_end[s, graph.end_meter[s, b]] += t1[b]
                continue
            win[s] += p[b] * win[t]
            win_sq[s] += 2 * t1[b] * win[t] + p[b] * win_sq[t]
            end[s] += p[b] * end[t]
            win_end[s] += t1[b] * end[t] + p[b] * win_end[t]
            spins[s] += p[b] * spins[t]
            level_spins[s] += p[b] * level_spins[t]
            mult[s] += p[b] * mult[t]
            beta_sum[s] += p[b] * beta_sum[t]
            gems[s] += p[b] * gems[t]
    return FreeSpinsMoments(win, win_sq, end, win_end, spins, level_spins, mult, beta_sum, gems)


@njit(cache=True, nogil=True)
def _memory_one_reel(
    successor: npt.NDArray[np.int64],
    multiplier: npt.NDArray[np.float64],
    start_prob: npt.NDArray[np.float64],
    start_gem: npt.NDArray[np.float64],
    start_beta: npt.NDArray[np.float64],
    p: npt.NDArray[np.float64],
    g1: npt.NDArray[np.float64],
    beta: npt.NDArray[np.float64],
    chh: npt.NDArray[np.float64],
    chha: npt.NDArray[np.float64],
    chah: npt.NDArray[np.float64],
    chaha: npt.NDArray[np.float64],
) -> float:
    """Forward over the ladder for one reel: 2 x the sum over pairs of spins (s < s') with a
    gem on the reel of the covariance of their wins given the stops. ``a0[s, e]`` and
    ``a1[s, e]`` carry the earlier gems (weight 1 and coefficient m beta) with ``e`` gems
    since; a gem ``e + 1`` gems after one of them closes the pair with the renewal
    covariances at distance ``e + 1`` (``c[e]``)."""
    n_states, n_b = successor.shape
    h = chh.shape[0]
    prob = start_prob.copy()
    a0 = np.zeros((n_states, h + 1))
    a1 = np.zeros((n_states, h + 1))
    a0[:, 0] = start_gem
    a1[:, 0] = start_beta
    beta_total = beta.sum()
    gem_total = g1.sum()
    total = 0.0
    for s in range(n_states):
        m = multiplier[s]
        for e in range(h):
            total += a1[s, e] * (m * beta_total * chh[e] + gem_total * chha[e])
            total += a0[s, e] * (m * beta_total * chah[e] + gem_total * chaha[e])
        for b in range(n_b):
            t = successor[s, b]
            if t < 0 or p[b] == 0.0:
                continue
            prob[t] += prob[s] * p[b]
            g0 = p[b] - g1[b]
            for e in range(h):
                a0[t, e] += a0[s, e] * g0
                a0[t, e + 1] += a0[s, e] * g1[b]
                a1[t, e] += a1[s, e] * g0
                a1[t, e + 1] += a1[s, e] * g1[b]
            a0[t, 0] += prob[s] * g1[b]
            a1[t, 0] += prob[s] * m * beta[b]
    return 2.0 * total


@njit(cache=True, nogil=True)
def _memory_two_reels(
    successor: npt.NDArray[np.int64],
    multiplier: npt.NDArray[np.float64],
    start_prob: npt.NDArray[np.float64],
    start_beta: npt.NDArray[np.float64],
    p: npt.NDArray[np.float64],
    pair: npt.NDArray[np.float64],
    beta: npt.NDArray[np.float64],
    ci: npt.NDArray[np.float64],
    cj: npt.NDArray[np.float64],
) -> float:
    """The two-reel Hoeffding term for reels i and j: spins with gems on both, coefficient
    ``m beta_ij``, covariance ``Cov(h_i) Cov(h_j)`` at their gem distances. ``pair[gi, gj,
    b]`` is the joint law of the two reels' gems and the bonus count in one free spin."""
    n_states, n_b = successor.shape
    h = ci.shape[0]
    prob = start_prob.copy()
    acc = np.zeros((n_states, h + 1, h + 1))
    acc[:, 0, 0] = start_beta
    beta_total = beta.sum()
    total = 0.0
    for s in range(n_states):
        m = multiplier[s]
        inner = 0.0
        for e in range(h):
            for f in range(h):
                inner += acc[s, e, f] * ci[e] * cj[f]
        total += inner * m * beta_total
        for b in range(n_b):
            t = successor[s, b]
            if t < 0 or p[b] == 0.0:
                continue
            prob[t] += prob[s] * p[b]
            for e in range(h):
                for f in range(h):
                    x = acc[s, e, f]
                    if x == 0.0:
                        continue
                    acc[t, e, f] += x * pair[0, 0, b]
                    acc[t, e + 1, f] += x * pair[1, 0, b]
                    acc[t, e, f + 1] += x * pair[0, 1, b]
                    acc[t, e + 1, f + 1] += x * pair[1, 1, b]
            acc[t, 0, 0] += prob[s] * m * beta[b]
    return 2.0 * total


class RoundAnalysis:
    """Exact per-round figures of one variant from its two reel sets' spin figures."""

    def __init__(self, rules: LadderRules, base: SpinFigures, free: SpinFigures) -> None:
        self.rules = rules
        self.base = base
        self.free = free
        self.ladder = Ladder(rules)
        self.reels = rules.model.reels
        self.levels = rules.levels
        self.spins_max = 1 + rules.levels * rules.spins_per_level
        self.horizon = self.spins_max + 1  # gem distances within a round stay below this
        self.pots = tuple(renewal(j.seed, j.last_trigger, self.horizon + 1) for j in rules.jackpots)
        self.kappa = np.array([1 + p.seed * p.q for p in self.pots])
        self.graph = LadderGraph.build(self.ladder, self.reels + 1)
        self.free_moments = free_spins_moments(self.graph, free, rules.levels, rules.spots)

    @property
    def p_trigger(self) -> float:
        return float(self.base.probability[self.rules.trigger_count :].sum())

    def _start_weights(self, meter_law: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Probability that the free spins start in each ladder state, per unit of trigger."""
        out = np.zeros(len(self.graph.states))
        for meter, weight in enumerate(meter_law):
            out[self.graph.starts[meter]] += weight
        return out

    # -- the pots' memory within a round ------------------------------------------------
    def memory_correction(
        self, meter_law: npt.NDArray[np.float64]
    ) -> tuple[float, npt.NDArray[np.float64], float]:
        """The term the pots' memory adds to E[X^2] for rounds whose carried meter follows
        ``meter_law``: 2 x the sum over pairs of spins of a round of the covariances of their
        wins given the reel stops (one-reel and two-reel Hoeffding terms). Returns the total,
        the one-reel part per reel and the two-reel part."""
        base, free = self.base, self.free
        trigger = self.rules.trigger_count
        weights = self._start_weights(meter_law)
        g = self.graph
        d = np.arange(1, self.horizon + 1)
        per_reel = np.zeros(self.reels)
        for i, pot in enumerate(self.pots):
            q, mean = pot.q, pot.mean_award
            per_reel[i] = _memory_one_reel(
                g.successor,
                g.multiplier,
                weights * self.p_trigger,
                weights * float(base.gem[i, trigger:].sum()),
                weights * float(base.beta[i, trigger:].sum()),
                free.probability,
                free.gem[i],
                free.beta[i],
                q * (pot.u[d] - q),
                q * pot.r[d] - q * q * mean,
                q * mean * (pot.u[d] - q),
                q * mean * (pot.r[d] - q * mean),
            )
        pairs = 0.0
        for i in range(self.reels):
            for j in range(i + 1, self.reels):
                pi, pj = self.pots[i], self.pots[j]
                pairs += _memory_two_reels(
                    g.successor,
                    g.multiplier,
                    weights * self.p_trigger,
                    weights * float(base.beta_pair[i, j, trigger:].sum()),
                    free.probability,
                    np.ascontiguousarray(free.gem_pair[i, j]),
                    free.beta_pair[i, j],
                    pi.q * (pi.u[d] - pi.q),
                    pj.q * (pj.u[d] - pj.q),
                )
        return float(per_reel.sum() + pairs), per_reel, pairs

    def omitted_bound(self) -> float:
        """A bound on the memory terms over three or more reels (not computed). A pair of
        spins contributes only when both show gems on every reel of the set A; its term is at
        most ``(2^|A| x largest spin line pay x largest multiplier)^2`` times the product over
        A of the largest ``|Cov(h_0, h_d)|``; spins are independent, so the chance of both
        is at most the square of the largest per-spin chance, and there are at most
        ``C(spins, 2)`` pairs in a round, which needs a trigger but for the main spin."""
        rules = self.rules
        spins = self.spins_max
        m_max = max(rules.multipliers)
        max_pay = float(rules.model.line_pays.max())  # a line's pay per line bet: x lines / lines
        gem_max = np.maximum(self.base.gem.sum(axis=1), self.free.gem.sum(axis=1))
        c_max = [
            max(abs(p.q * (p.u[d] - p.q)) for d in range(1, self.horizon + 1)) for p in self.pots
        ]
        bound = 0.0
        for size in range(3, self.reels + 1):
            for subset in combinations(range(self.reels), size):
                p_gems = math.prod(float(gem_max[i]) for i in subset)
                coefficient = (2**size) * max_pay * m_max
                term = 2 * self.p_trigger * math.comb(spins, 2) * p_gems**2 * coefficient**2
                bound += term * math.prod(c_max[i] for i in subset)
        return bound

    # -- no win at all --------------------------------------------------------------------
    def no_win(self, meter_law: npt.NDArray[np.float64]) -> tuple[float, float]:
        """P(X = 0) for a round whose carried meter follows ``meter_law`` (exact, see the
        module notes), and a bound on the rounds showing more gems on one reel than its
        quadratic covers (their effect on the result is at most that probability)."""
        base, free = self.base, self.free
        trigger = self.rules.trigger_count
        reels = self.reels
        alpha = np.ones(1)
        for pot in self.pots:
            k = pot.k
            alpha = np.multiply.outer(alpha, np.array([1.0, -2.0 / (k + 1), 2.0 / (k * (k + 1))]))
        alpha = alpha.reshape(-1)
        op_base = _gem_count_operators(base.no_win_non_hit, reels)
        op_free = _gem_count_operators(free.no_win_non_hit, reels)
        e0 = np.zeros(3**reels)
        e0[0] = 1.0
        result = 0.0
        for b in range(trigger):
            result += float(alpha @ (op_base[b] @ e0))
        triggered = sum(op_base[b] @ e0 for b in range(trigger, reels + 1))
        weights = self._start_weights(meter_law)
        vectors = np.outer(weights, triggered)
        g = self.graph
        for s in range(len(g.states)):
            v = vectors[s]
            if not v.any():
                continue
            for b in range(reels + 1):
                if free.probability[b] == 0.0:
                    continue
                w = op_free[b] @ v
                t = g.successor[s, b]
                if t < 0:
                    result += float(alpha @ w)
                else:
                    vectors[t] += w
        excess = 0.0
        for i, pot in enumerate(self.pots):
            gm = max(float(base.gem[i].sum()), float(free.gem[i].sum()))
            need = pot.k + 2
            if need <= self.spins_max:
                excess += math.comb(self.spins_max, need) * gm**need
        return result, excess


@cache
def _count_step(reels: int, pattern: int) -> npt.NDArray[np.float64]:
    """The 3^reels x 3^reels map of (1, n, n(n-1)/2) per reel when reels in ``pattern`` each
    show one more gem."""
    one = np.eye(3)
    more = np.array([[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 1.0]])
    out = np.ones((1, 1))
    for reel in range(reels):
        out = np.kron(out, more if pattern >> reel & 1 else one)
    return out


def _gem_count_operators(
    no_win: npt.NDArray[np.float64], reels: int
) -> list[npt.NDArray[np.float64]]:
    """Per bonus count: sum over gem patterns of P(no win, pattern; b) x the count step."""
    size = 3**reels
    out = []
    for b in range(reels + 1):
        op = np.zeros((size, size))
        if b < no_win.shape[1]:
            for pattern in range(no_win.shape[0]):
                weight = no_win[pattern, b]
                if weight:
                    op += weight * _count_step(reels, pattern)
        out.append(op)
    return out
