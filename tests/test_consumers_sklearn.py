"""scikit-learn's Array API mode on npgpu arrays, against the same calls on NumPy arrays.

scikit-learn's ``array_api_dispatch=True`` needs ``SCIPY_ARRAY_API=1`` set before SciPy is first
imported, which this pytest process may already have done: the cases run in one subprocess (this
file run as a script) that prints, per case, "ok" or the failure; each test checks one case.
A case compares every returned array (read with ``npgpu.asnumpy``) with NumPy's result and
checks that the arrays came back as npgpu arrays (the work stayed on the device).

Not here, by design or by scikit-learn (a NumPy-only path calls ``numpy.asarray``, which npgpu
refuses, docs/differences.md): LinearDiscriminantAnalysis(solver="eigen") (adds into a NumPy
array, then scipy.linalg.eigh), preprocessing.scale, pairwise_distances_argmin_min (Cython),
fowlkes_mallows_score (scipy.sparse).
"""
import json
import os
import subprocess
import sys

import pytest

# scikit-learn's Array API coverage grows each release: these cases need 1.9
pytest.importorskip("sklearn", minversion="1.9")
pytest.importorskip("scipy")


def _cases():
    """name -> (function of (xp_data...), args as NumPy arrays, options); run in the script."""
    import numpy
    from sklearn import (decomposition, discriminant_analysis, kernel_approximation,
                         linear_model, metrics, mixture, model_selection, naive_bayes,
                         pipeline, preprocessing)
    from sklearn.metrics import pairwise

    rng = numpy.random.default_rng(0)
    X = rng.standard_normal((40, 4))
    y3 = rng.integers(0, 3, 40)
    yc = (X[:, 0] + 0.5 * rng.standard_normal(40) > 0).astype(numpy.int64)
    yr = X @ numpy.array([1.0, 2.0, -1.0, 0.5]) + 0.1 * rng.standard_normal(40)
    Xp = numpy.abs(X)
    prob = 1 / (1 + numpy.exp(-X[:, 0]))
    P3 = numpy.exp(X[:, :3])
    P3 /= P3.sum(1, keepdims=True)

    def est(make, attrs, meth=None, supervised=False):
        def f(X, y=None):
            e = make()
            e.fit(X, y) if supervised else e.fit(X)
            return [getattr(e, a) for a in attrs] + ([getattr(e, meth)(X)] if meth else [])
        return f

    sup = dict(supervised=True)
    C = {
        "PCA_full": (est(lambda: decomposition.PCA(2, svd_solver="full"),
                         ["components_", "explained_variance_", "mean_"], "transform"),
                     (X,), dict(sign=True)),
        "PCA_randomized": (est(lambda: decomposition.PCA(2, svd_solver="randomized",
                                                         power_iteration_normalizer="QR",
                                                         random_state=0),
                               ["explained_variance_"]), (X,), dict(atol=1e-6)),
        "PCA_covariance_eigh": (est(lambda: decomposition.PCA(2, svd_solver="covariance_eigh"),
                                    ["components_", "explained_variance_"], "transform"),
                                (X,), dict(sign=True)),
        "PCA_float32": (est(lambda: decomposition.PCA(2, svd_solver="full"),
                            ["explained_variance_"]), (X.astype(numpy.float32),),
                        dict(atol=1e-4)),
        "LDA": (est(discriminant_analysis.LinearDiscriminantAnalysis,
                    ["coef_", "intercept_", "explained_variance_ratio_"], "predict", **sup),
                (X, y3), {}),
        "LDA_transform": (est(discriminant_analysis.LinearDiscriminantAnalysis, [],
                              "transform", **sup), (X, y3), dict(sign=True)),
        "Ridge_svd": (est(lambda: linear_model.Ridge(solver="svd"), ["coef_", "intercept_"],
                          "predict", **sup), (X, yr), {}),
        "RidgeCV": (est(lambda: linear_model.RidgeCV(alphas=(0.1, 1.0, 10.0)),
                        ["coef_", "alpha_"], "predict", **sup), (X, yr), {}),
        "RidgeClassifier": (est(lambda: linear_model.RidgeClassifier(solver="svd"),
                                ["coef_", "classes_"], "predict", **sup), (X, y3), {}),
        "RidgeClassifierCV": (est(linear_model.RidgeClassifierCV, ["coef_"], "predict", **sup),
                              (X, y3), {}),
        "LogisticRegression_lbfgs": (est(linear_model.LogisticRegression,
                                         ["coef_", "intercept_"], "predict_proba", **sup),
                                     (X, y3), dict(atol=1e-4)),
        "PoissonRegressor": (est(linear_model.PoissonRegressor, ["coef_"], "predict", **sup),
                             (X, numpy.abs(yr) + 0.1), dict(atol=1e-4)),
        "GaussianMixture": (est(lambda: mixture.GaussianMixture(
            2, random_state=0, init_params="random_from_data"), ["means_", "weights_"],
            "predict_proba"), (X,), dict(atol=1e-6)),
        "StandardScaler": (est(preprocessing.StandardScaler, ["mean_", "scale_"], "transform"),
                           (X,), {}),
        "StandardScaler_float32": (est(preprocessing.StandardScaler, ["mean_"], "transform"),
                                   (X.astype(numpy.float32),), dict(atol=1e-5)),
        "MinMaxScaler": (est(preprocessing.MinMaxScaler, ["data_min_"], "transform"), (X,), {}),
        "MaxAbsScaler": (est(preprocessing.MaxAbsScaler, ["max_abs_"], "transform"), (X,), {}),
        "Normalizer": (est(preprocessing.Normalizer, [], "transform"), (X,), {}),
        "Binarizer": (est(lambda: preprocessing.Binarizer(threshold=0.1), [], "transform"),
                      (X,), {}),
        "KernelCenterer": (est(preprocessing.KernelCenterer, [], "transform"),
                           (X[:6] @ X[:6].T,), {}),
        "PolynomialFeatures": (est(lambda: preprocessing.PolynomialFeatures(2), [], "transform"),
                               (X[:10],), {}),
        "LabelEncoder": (lambda y: (lambda e: [e.fit_transform(y), e.classes_])(
            preprocessing.LabelEncoder()), (y3,), {}),
        "LabelBinarizer": (lambda y: (lambda e: [e.fit_transform(y), e.classes_])(
            preprocessing.LabelBinarizer()), (y3,), {}),
        "minmax_scale_normalize": (lambda X: [preprocessing.minmax_scale(X),
                                              preprocessing.normalize(X, norm="l1")], (X,), {}),
        "GaussianNB": (est(naive_bayes.GaussianNB, ["theta_", "var_", "class_prior_"],
                           "predict_proba", **sup), (X, y3), {}),
        "Nystroem": (est(lambda: kernel_approximation.Nystroem(n_components=5, random_state=0),
                         [], "transform"), (X[:20],), dict(atol=1e-6)),
        "Pipeline": (est(lambda: pipeline.make_pipeline(
            preprocessing.StandardScaler(), decomposition.PCA(2, svd_solver="full"),
            linear_model.Ridge(solver="svd")), [], "predict", **sup), (X, yr), {}),
        # y stays a NumPy array: scikit-learn moves it to X's namespace (DLPack, from_dlpack)
        "mixed_numpy_y": (lambda X: [linear_model.Ridge(solver="svd").fit(X, yr).coef_,
                                     metrics.r2_score(yr, X[:, 0])], (X,), {}),
        "train_test_split": (lambda X, y: model_selection.train_test_split(
            X, y, random_state=0, stratify=y), (X, y3), {}),
        "cross_val_score": (lambda X, y: model_selection.cross_val_score(
            linear_model.Ridge(solver="svd"), X, y, cv=3), (X, yr), dict(host=True)),
        "cross_val_predict": (lambda X, y: model_selection.cross_val_predict(
            linear_model.Ridge(solver="svd"), X, y, cv=3), (X, yr), {}),
        "classification_metrics": (lambda a, b: [
            metrics.accuracy_score(a, b), metrics.zero_one_loss(a, b),
            metrics.balanced_accuracy_score(a, b), metrics.cohen_kappa_score(a, b),
            metrics.f1_score(a, b, average="macro"), metrics.hamming_loss(a, b),
            metrics.jaccard_score(a, b, average="micro"),
            metrics.precision_score(a, b, average="weighted"),
            metrics.recall_score(a, b, average="macro")], (y3, numpy.roll(y3, 1)),
            dict(host=True)),
        "confusion_matrices": (lambda a, b: [
            metrics.confusion_matrix(a, b), metrics.multilabel_confusion_matrix(a, b),
            *metrics.precision_recall_fscore_support(a, b)], (y3, numpy.roll(y3, 1)), {}),
        "probability_metrics": (lambda y, p, y3, P: [
            metrics.log_loss(y, p), metrics.brier_score_loss(y, p),
            metrics.roc_auc_score(y, p), metrics.average_precision_score(y, p),
            metrics.log_loss(y3, P), metrics.d2_log_loss_score(y3, P),
            metrics.roc_auc_score(y3, P, multi_class="ovr")], (yc, prob, y3, P3),
            dict(host=True)),
        "curves": (lambda y, s: [*metrics.roc_curve(y, s), *metrics.precision_recall_curve(y, s),
                                 *metrics.det_curve(y, s)], (yc, X[:, 0]), {}),
        "regression_metrics": (lambda a, b: [
            metrics.r2_score(a, b), metrics.mean_squared_error(a, b),
            metrics.root_mean_squared_error(a, b), metrics.mean_absolute_error(a, b),
            metrics.explained_variance_score(a, b), metrics.max_error(a, b),
            metrics.mean_absolute_percentage_error(a, b), metrics.mean_pinball_loss(a, b),
            metrics.median_absolute_error(a, b)], (yr, X[:, 0]), dict(host=True)),
        "regression_multioutput": (lambda a, b: [
            metrics.r2_score(a, b, multioutput="raw_values"),
            metrics.mean_squared_error(a, b, multioutput="raw_values")], (X[:, :2], X[:, 2:]),
            {}),
        "tweedie_metrics": (lambda a, b: [
            metrics.mean_squared_log_error(a, b), metrics.mean_tweedie_deviance(a, b, power=1.5),
            metrics.mean_poisson_deviance(a, b), metrics.mean_gamma_deviance(a, b)],
            (numpy.abs(yr) + 0.1, numpy.abs(X[:, 0]) + 0.1), dict(host=True)),
        "pairwise_kernels": (lambda a, b: [
            pairwise.euclidean_distances(a, b), pairwise.cosine_similarity(a, b),
            pairwise.rbf_kernel(a, b), pairwise.polynomial_kernel(a, b),
            pairwise.linear_kernel(a, b), pairwise.laplacian_kernel(a, b),
            pairwise.sigmoid_kernel(a, b), pairwise.manhattan_distances(a, b),
            pairwise.cosine_distances(a, b), pairwise.pairwise_distances_argmin(a, b)],
            (X[:10], X[10:18]), {}),
        "chi2_kernels": (lambda a, b: [pairwise.chi2_kernel(a, b),
                                       pairwise.additive_chi2_kernel(a, b)],
                         (Xp[:10], Xp[10:18]), {}),
        "paired_distances": (lambda a, b: [pairwise.paired_distances(a, b),
                                           pairwise.paired_manhattan_distances(a, b),
                                           pairwise.paired_cosine_distances(a, b)],
                             (X[:10], X[10:20]), {}),
        "nan_euclidean": (pairwise.nan_euclidean_distances,
                          (numpy.where(X[:10] > 1.2, numpy.nan, X[:10]), X[10:18]), {}),
        "cluster_scores": (lambda X, lab: [metrics.calinski_harabasz_score(X, lab),
                                           metrics.davies_bouldin_score(X, lab)], (X, y3),
                           dict(host=True)),
    }
    return C


def _run_cases():
    """The script's body: every case on NumPy and on npgpu arrays; prints a JSON dict."""
    import warnings

    import numpy
    import sklearn
    warnings.filterwarnings("ignore")
    import npgpu
    sklearn.set_config(array_api_dispatch=True)

    def leaves(o):
        if isinstance(o, (tuple, list)):
            return [x for i in o for x in leaves(i)]
        return [o]

    res = {}
    for name, (f, args, opt) in _cases().items():
        try:
            want = leaves(f(*args))
            got = leaves(f(*[npgpu.asarray(a) for a in args]))
            assert len(got) == len(want), (len(got), len(want))
            for g, w in zip(got, want):
                if not opt.get("host") and isinstance(w, numpy.ndarray):
                    assert isinstance(g, npgpu.ndarray), f"{type(g).__name__} returned"
                g = npgpu.asnumpy(g) if isinstance(g, npgpu.ndarray) else numpy.asarray(g)
                w = numpy.asarray(w)
                assert g.shape == w.shape, (g.shape, w.shape)
                if opt.get("sign"):     # eigenvector signs are free
                    g, w = numpy.abs(g), numpy.abs(w)
                numpy.testing.assert_allclose(g, w, rtol=1e-6, atol=opt.get("atol", 1e-9))
            res[name] = "ok"
        except Exception as e:      # reported per case by the test
            res[name] = f"{type(e).__name__}: {e}"[:2000]
    print("RESULTS " + json.dumps(res))


@pytest.fixture(scope="module")
def results():
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    r = subprocess.run([sys.executable, __file__], env=env, capture_output=True, text=True,
                       timeout=600)
    line = [s for s in r.stdout.splitlines() if s.startswith("RESULTS ")]
    assert r.returncode == 0 and line, r.stdout[-3000:] + r.stderr[-3000:]
    return json.loads(line[-1][len("RESULTS "):])


CASES = ["PCA_full", "PCA_randomized", "PCA_covariance_eigh", "PCA_float32", "LDA",
         "LDA_transform", "Ridge_svd", "RidgeCV", "RidgeClassifier", "RidgeClassifierCV",
         "LogisticRegression_lbfgs", "PoissonRegressor", "GaussianMixture", "StandardScaler",
         "StandardScaler_float32", "MinMaxScaler", "MaxAbsScaler", "Normalizer", "Binarizer",
         "KernelCenterer", "PolynomialFeatures", "LabelEncoder", "LabelBinarizer",
         "minmax_scale_normalize", "GaussianNB", "Nystroem", "Pipeline", "mixed_numpy_y",
         "train_test_split",
         "cross_val_score", "cross_val_predict", "classification_metrics", "confusion_matrices",
         "probability_metrics", "curves", "regression_metrics", "regression_multioutput",
         "tweedie_metrics", "pairwise_kernels", "chi2_kernels", "paired_distances",
         "nan_euclidean", "cluster_scores"]


def test_cases_listed(results):
    assert sorted(results) == sorted(CASES)


@pytest.mark.parametrize("case", CASES)
def test_sklearn_matches_numpy(results, case):
    assert results[case] == "ok", results[case]


if __name__ == "__main__":
    _run_cases()
