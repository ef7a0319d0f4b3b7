"""ParameterMixing's set-up (before the first round) with a development set, Brown, raw words."""
import sys, time
sys.path.insert(0, "/work/main/benchmarks")
from _corpora import brown_pos
from skstruct import BeamSearch, ParameterMixing, StructuredPerceptron, TokenFeatures

def main():
    X, y, X_dev, y_dev = brown_pos(n_train=20000, tokens=True)
    learner = StructuredPerceptron(BeamSearch(beam_size=4), update="max_violation", random_state=0,
                                   features=TokenFeatures())
    learner.set_params(max_iter=1).fit(X[:200], y[:200])
    mix = lambda: ParameterMixing(learner.set_params(max_iter=10), n_shards=2, n_jobs=2, max_iter=2, random_state=0)
    mix().fit(X[:300], y[:300], X_dev=X_dev[:50], y_dev=y_dev[:50])  # workers started
    # a large development set: the last 10,000 of the 20,000 as dev, 10,000 to train
    Xt, yt, Xd, yd = X[:10000], y[:10000], X[10000:] + X_dev, y[10000:] + y_dev
    for _ in range(2):
        t = time.perf_counter(); m = mix().fit(Xt, yt, X_dev=Xd, y_dev=yd); wall = time.perf_counter() - t
        h = m.history_
        print(f"{sys.argv[1]}: dev {len(Xd)} sentences; set-up {h[0]['elapsed'] - h[0]['seconds']:.2f} s, fit {wall:.2f} s, dev scores {[round(r['dev_score'], 5) for r in h]}", flush=True)

if __name__ == "__main__":
    main()
