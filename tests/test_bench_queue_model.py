"""The latency bench's queue model: a one-server FIFO queue with Poisson arrivals."""

from __future__ import annotations

import statistics

from bench.latency import queue_model


def test_mean_sojourn_matches_the_m_d_1_formula() -> None:
    service, rate = 0.001, 500.0  # load 0.5
    rho = rate * service
    expected = service + rho * service / (2 * (1 - rho))  # Pollaczek-Khinchine, M/D/1
    got = statistics.fmean(queue_model([service], rate, n=100_000))
    assert abs(got - expected) / expected < 0.03


def test_an_idle_queue_answers_in_the_service_time_and_scale_scales_it() -> None:
    times = queue_model([0.002], rate=0.001, n=2_000)  # a move every 1,000 s: no wait
    assert abs(times[0] - 0.002) < 1e-6 and abs(times[-1] - 0.002) < 1e-6
    assert abs(queue_model([0.002], rate=0.001, scale=0.5, n=10)[-1] - 0.001) < 1e-6


def test_the_tail_grows_with_the_load() -> None:
    p99 = [queue_model([0.001, 0.003], rate, n=50_000)[49_500] for rate in (100, 300, 450)]
    assert p99[0] < p99[1] < p99[2]
