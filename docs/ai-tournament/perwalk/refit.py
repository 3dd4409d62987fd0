import numpy as np, sys
d = np.load(sys.argv[1]); X, Y = d["X"], d["Y"]
def fit(cols):
    A = np.hstack([np.ones((len(X), 1)), X[:, cols]]); w = np.zeros(A.shape[1])
    for it in range(25):
        p = 1 / (1 + np.exp(-A @ w)); g = A.T @ (Y - p); H = (A * (p * (1 - p))[:, None]).T @ A
        w += np.linalg.solve(H + 1e-6 * np.eye(len(w)), g)
    p = 1 / (1 + np.exp(-A @ w))
    return w, np.mean((p - Y) ** 2)
for cols in ([0, 1], [0, 1, 2, 3], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4, 7, 8], list(range(9))):
    w, b = fit(cols); print(cols, "brier %.4f" % b, np.round(w * 62.5, 1))
