"""Monte Carlo pricing of European call options, checked against Black-Scholes.

Draws N standard normals with ``npgpu.random`` (Philox on the GPU), turns them into terminal
prices of a geometric Brownian motion, and prices nine strikes at once with ``@npgpu.fuse``:
the (strikes x paths) payoff matrix is never stored, the payoffs are the map step of one
reduction per row.  The closed-form Black-Scholes price comes from an ``ElementwiseKernel``
(``math.erf`` on the device) over many options.  NumPy runs the same fused functions on the
host (with its own random numbers); both Monte Carlo estimates must lie within 4 standard
errors of the formula.

    python examples/monte_carlo_options.py        # 2**23 paths on a GPU, 4096 on the simulator
    python examples/monte_carlo_options.py --size 1000000
"""
import math

import numpy as np
import scipy.special
from timing_and_checks import ON_GPU, check, check_true, done, host, note, size_from_args, step

import npgpu        # after timing_and_checks, which quiets the simulator's warning

S0, RATE, VOL, T = 100.0, 0.03, 0.25, 1.0
STRIKES = np.linspace(80.0, 120.0, 9)


@npgpu.fuse(kernel_name="terminal_price")
def terminal_price(z, s0, drift, vol):
    return s0 * npgpu.exp(drift + vol * z)


@npgpu.fuse(kernel_name="call_moments")
def call_moments(st, k, discount):
    """Discounted mean payoff and mean squared payoff per strike row (k has shape (m, 1))."""
    pay = npgpu.maximum(st - k, 0)
    return discount * pay.mean(axis=1, dtype=np.float64), (pay * pay).mean(axis=1, dtype=np.float64)


black_scholes_call = npgpu.ElementwiseKernel(
    "T s, T k, float64 r, float64 v, float64 t", "T c",
    """
    sd = v * math.sqrt(t)
    d1 = (math.log(s / k) + (r + 0.5 * v * v) * t) / sd
    d2 = d1 - sd
    c = (s * 0.5 * math.erfc(-d1 / math.sqrt(2.0))
         - k * math.exp(-r * t) * 0.5 * math.erfc(-d2 / math.sqrt(2.0)))
    """,
    "black_scholes_call")


def black_scholes_call_numpy(s, k, r, v, t):
    sd = v * math.sqrt(t)
    d1 = (np.log(s / k) + (r + 0.5 * v * v) * t) / sd
    d2 = d1 - sd
    return (s * 0.5 * scipy.special.erfc(-d1 / math.sqrt(2.0))
            - k * math.exp(-r * t) * 0.5 * scipy.special.erfc(-d2 / math.sqrt(2.0)))


def main():
    n = size_from_args(__doc__, gpu_size=2 ** 23, sim_size=4096, what="paths")
    drift, vol, disc = (RATE - 0.5 * VOL ** 2) * T, VOL * math.sqrt(T), math.exp(-RATE * T)
    gen, gen_h = npgpu.random.default_rng(7), np.random.default_rng(7)

    z, z_h = step("standard normals (float32)", lambda: gen.standard_normal(n, dtype=np.float32),
                  lambda: gen_h.standard_normal(n, dtype=np.float32))
    check_true("normals: mean and std", abs(float(z.mean())) < 5 / math.sqrt(n)
               and abs(float(z.std()) - 1) < 5 / math.sqrt(n), "within 5/sqrt(n)")

    st, st_h = step("terminal prices (fused, 1 kernel)",
                    lambda: terminal_price(z, S0, drift, vol),
                    lambda: terminal_price(z_h, S0, drift, vol))
    check("terminal prices vs NumPy on npgpu's normals",
          st, S0 * np.exp(drift + vol * host(z).astype(np.float64)), rtol=2e-6)

    k_h = STRIKES.astype(np.float32)[:, None]
    k = npgpu.asarray(k_h)
    (price, m2), (price_h, m2_h) = step(
        f"price {len(STRIKES)} strikes (fused reductions)",
        lambda: call_moments(st, k, disc), lambda: call_moments(st_h, k_h, disc))

    # the closed form, for many options on the device; the nine strikes are its first rows
    m = max(len(STRIKES), n // 8)
    ks = np.concatenate([STRIKES, np.random.default_rng(1).uniform(50, 150, m - len(STRIKES))])
    spot = np.full(m, S0)
    ks_d, spot_d = npgpu.asarray(ks), npgpu.asarray(spot)
    bs, bs_h = step(f"Black-Scholes formula, {m} options",
                    lambda: black_scholes_call(spot_d, ks_d, RATE, VOL, T),
                    lambda: black_scholes_call_numpy(spot, ks, RATE, VOL, T))
    check("Black-Scholes kernel vs NumPy/SciPy", bs, bs_h, rtol=1e-12, atol=1e-12)

    exact = host(bs)[:len(STRIKES)]
    for name, p, q in (("npgpu", host(price), host(m2)), ("numpy", price_h, m2_h)):
        se = disc * np.sqrt((q - (p / disc) ** 2) / n)
        worst = float(np.max(np.abs(p - exact) / se))
        check_true(f"{name} Monte Carlo vs Black-Scholes", worst < 4.0,
                   f"worst |MC - BS| = {worst:.2f} standard errors < 4")
    note("strike   Black-Scholes   npgpu MC    numpy MC")
    for i in (0, len(STRIKES) // 2, len(STRIKES) - 1):
        note(f"{STRIKES[i]:6.1f}   {exact[i]:13.4f}   {host(price)[i]:8.4f}   {price_h[i]:9.4f}")
    if ON_GPU:
        note(f"launches of the pricing call: {call_moments.launches(st, k, disc)}")
    done()


if __name__ == "__main__":
    main()
