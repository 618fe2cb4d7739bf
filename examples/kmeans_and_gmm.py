"""k-means clustering and a Gaussian mixture fitted by EM, one code path for NumPy and npgpu.

Points are drawn from K Gaussian blobs in D dimensions.  k-means (Lloyd's iterations) computes
squared distances with one matrix product, assigns labels with ``argmin`` and updates centroids
with a one-hot matrix product.  The mixture model (full covariances) starts from the k-means
solution; its E step evaluates log-densities through batched ``linalg.cholesky``/``inv`` and
a log-sum-exp, its M step is weighted means and covariances.  Both algorithms are written
once, with ``npgpu.get_array_module``; NumPy runs the same code on the same points, and the
results must agree.

    python examples/kmeans_and_gmm.py             # 2**19 points on a GPU, 256 on the simulator
    python examples/kmeans_and_gmm.py --size 100000
"""
import math

import numpy as np
from timing_and_checks import ON_GPU, check, check_true, done, host, note, size_from_args, step

import npgpu        # after timing_and_checks, which quiets the simulator's warning

K, D = 6, 4
KMEANS_ITERS, EM_ITERS = (15, 15) if ON_GPU else (6, 6)     # the simulator: a few seconds


def kmeans(X, centroids, iters):
    """Lloyd's algorithm from the given initial centroids; returns (centroids, labels)."""
    xp = npgpu.get_array_module(X)
    k = centroids.shape[0]
    for _ in range(iters):
        # |x - c|^2 without |x|^2 (the same for every c), laid out (k, n): the reductions over
        # the few clusters run down columns, one thread a point
        d2 = (centroids * centroids).sum(axis=1)[:, None] - 2 * (centroids @ X.T)
        labels = xp.argmin(d2, axis=0)
        onehot = (xp.arange(k)[:, None] == labels).astype(X.dtype)     # (k, n)
        counts = onehot.sum(axis=1)
        centroids = (onehot @ X) / xp.maximum(counts, 1)[:, None]
    return centroids, labels


def gmm_em(X, means, iters, reg=1e-6):
    """EM for a Gaussian mixture with full covariances; returns (weights, means, covs, loglik)."""
    xp = npgpu.get_array_module(X)
    n, d = X.shape
    k = means.shape[0]
    weights = xp.full(k, 1.0 / k)
    covs = xp.broadcast_to(xp.cov(X.T), (k, d, d)).copy()
    ones = xp.ones(d)
    history = []
    for _ in range(iters):
        # E step: log N(x | mu_j, S_j) = -(maha + log|S_j| + d log 2 pi) / 2, laid out (k, n)
        L = xp.linalg.cholesky(covs)                              # (k, d, d), batched
        logdet = 2 * xp.log(xp.diagonal(L, axis1=1, axis2=2)).sum(axis=1)
        prec = xp.linalg.inv(covs)
        diff = X - means[:, None, :]                              # (k, n, d)
        maha = ((diff @ prec) * diff) @ ones                      # batched matmuls -> (k, n)
        logp = (xp.log(weights) - 0.5 * (logdet + d * math.log(2 * math.pi)))[:, None] - 0.5 * maha
        top = logp.max(axis=0)
        lse = top + xp.log(xp.exp(logp - top).sum(axis=0))       # log-sum-exp over clusters
        resp = xp.exp(logp - lse)                                 # (k, n) responsibilities
        history.append(lse.mean())
        # M step
        nk = resp.sum(axis=1)
        weights = nk / n
        means = (resp @ X) / nk[:, None]
        diff = X - means[:, None, :]
        covs = (resp[:, :, None] * diff).transpose(0, 2, 1) @ diff / nk[:, None, None]
        covs = covs + reg * xp.eye(d)
    return weights, means, covs, xp.stack(history)


def main():
    n = size_from_args(__doc__, gpu_size=2 ** 19, sim_size=256, what="points")
    rng = np.random.default_rng(11)
    centers = rng.uniform(-10, 10, (K, D))
    scales = rng.uniform(0.5, 1.5, (K, D, D)) * np.eye(D) + rng.uniform(-0.3, 0.3, (K, D, D))
    which = rng.integers(0, K, n)
    X_h = centers[which] + np.einsum("nd,nde->ne", rng.standard_normal((n, D)), scales[which])
    X = npgpu.asarray(X_h)
    init_h = X_h[rng.choice(n, K, replace=False)]
    init = npgpu.asarray(init_h)

    (c, labels), (c_h, labels_h) = step(f"k-means, {KMEANS_ITERS} iterations",
                                        lambda: kmeans(X, init, KMEANS_ITERS),
                                        lambda: kmeans(X_h, init_h, KMEANS_ITERS), repeat=1)
    check("k-means centroids", c, c_h, rtol=1e-9, atol=1e-9)
    agree = float((host(labels) == labels_h).mean())
    check_true("k-means labels", agree >= 0.999, f"{agree:.4%} equal to NumPy's")

    (w, mu, cov, ll), (w_h, mu_h, cov_h, ll_h) = step(
        f"Gaussian mixture, {EM_ITERS} EM iterations",
        lambda: gmm_em(X, c, EM_ITERS), lambda: gmm_em(X_h, host(c), EM_ITERS), repeat=1)
    check("EM log-likelihood per iteration", ll, ll_h, rtol=1e-9)
    check("mixture weights", w, w_h, rtol=1e-7, atol=1e-9)
    check("mixture means", mu, mu_h, rtol=1e-7, atol=1e-8)
    check("mixture covariances", cov, cov_h, rtol=1e-6, atol=1e-8)
    ll = host(ll)
    check_true("EM never lowers the likelihood", bool(np.all(np.diff(ll) > -1e-9)),
               f"{ll[0]:.4f} -> {ll[-1]:.4f}")
    note(f"fitted weights: {np.round(host(w), 3)}")
    done()


if __name__ == "__main__":
    main()
