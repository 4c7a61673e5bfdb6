"""The harness's handshake on verl's collective metadata channel (smoke_tests/sync/harness.py), over real
zmq PUB/SUB sockets on loopback: a fresh subscriber gets the first message published after it, which
without the handshake zmq drops (the slow joiner), and a read that nothing answers fails in bounded time."""

import pickle
import threading

import pytest
import zmq

from smoke_tests.sync.harness import await_subscription, publish_until_subscribed

TOPIC = "bucket_metadata"  # verl's topic; any topic string behaves alike
ROUNDS = 20  # verl connects a new SUB socket for every weight version


@pytest.fixture
def publisher():
    context = zmq.Context()
    socket = context.socket(zmq.PUB)
    port = socket.bind_to_random_port("tcp://127.0.0.1")
    yield socket, port
    socket.close(linger=0)
    context.term()


def _subscriber(port: int):
    socket = zmq.Context.instance().socket(zmq.SUB)
    socket.connect(f"tcp://127.0.0.1:{port}")
    socket.setsockopt_string(zmq.SUBSCRIBE, TOPIC)  # as verl's _connect_zmq_client, then straight on
    return socket


def _trainer(socket, subscribed: threading.Event, metadata) -> threading.Thread:
    def run():
        publish_until_subscribed(socket, TOPIC, subscribed.is_set, timeout_s=10)
        socket.send_string(TOPIC, flags=zmq.SNDMORE)  # what verl's BroadcastOperation sends first
        socket.send_pyobj(metadata)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_fresh_subscriber_reads_the_first_bucket_after_the_handshake(publisher):
    pub, port = publisher
    for round_ in range(ROUNDS):
        sub, subscribed = _subscriber(port), threading.Event()
        trainer = _trainer(pub, subscribed, {"bucket": round_})
        await_subscription(sub, subscribed.set, timeout_s=10)
        assert sub.recv_string() == TOPIC  # verl's reads: no probe left over before its metadata
        assert sub.recv_pyobj() == {"bucket": round_}
        trainer.join(10)
        sub.close(linger=0)


def test_a_read_nothing_answers_fails_in_bounded_time(publisher):
    pub, port = publisher
    sub, subscribed = _subscriber(port), threading.Event()
    trainer = threading.Thread(target=publish_until_subscribed, args=(pub, TOPIC, subscribed.is_set, 10), daemon=True)
    trainer.start()
    await_subscription(sub, subscribed.set, timeout_s=0.5)
    trainer.join(10)
    assert _raised_within(5, sub.recv_string).startswith("Again")  # verl's read of a bucket that never comes
    sub.close(linger=0)


def _raised_within(seconds: float, call) -> str:
    """What `call` raised, run in a thread; a call still running after `seconds` fails the test."""
    raised = []

    def run():
        try:
            call()
        except Exception as exc:
            raised.append(f"{type(exc).__name__}: {exc}")
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still waiting after {seconds} s"
    return raised[0] if raised else ""


def test_the_handshake_names_a_subscription_that_never_arrives(publisher):
    pub, _ = publisher
    raised = _raised_within(5, lambda: publish_until_subscribed(pub, TOPIC, lambda: False, timeout_s=0.3))
    assert raised.startswith("TimeoutError") and "subscription never arrived" in raised


def test_the_rollout_names_a_trainer_that_never_probes(publisher):
    _, port = publisher
    raised = _raised_within(5, lambda: await_subscription(_subscriber(port), lambda: None, timeout_s=0.3))
    assert raised.startswith("TimeoutError") and "no probe from the trainer" in raised


def test_without_the_handshake_the_first_bucket_can_be_lost(publisher):
    """The race the handshake closes, shown with the same sockets: published at once, the first message
    is dropped in at least one round (zmq's slow joiner)."""
    pub, port = publisher
    def first_bucket_arrives(round_) -> bool:
        sub = _subscriber(port)
        sub.setsockopt(zmq.RCVTIMEO, 200)
        pub.send_string(TOPIC, flags=zmq.SNDMORE)
        pub.send(pickle.dumps({"bucket": round_}))
        try:
            return sub.recv_string() == TOPIC and sub.recv() is not None
        except zmq.Again:
            return False
        finally:
            sub.close(linger=0)
    assert not all(first_bucket_arrives(round_) for round_ in range(ROUNDS))


def test_the_sync_names_every_tensor_whose_bytes_differ_and_the_fault_flips_one_byte():
    """The harness's byte comparison and its corrupt-byte fault, on numpy bytes (no torch in the fast
    suite: the docker suite runs both through verl's engines)."""
    import hashlib

    import numpy

    from smoke_tests.sync.harness import compare, flip_one_byte

    def digest(array):
        return hashlib.sha256(array.tobytes()).hexdigest()
    sent = {name: numpy.arange(64, dtype=numpy.uint8) + i for i, name in enumerate(("a", "b"))}
    sums = {name: digest(array) for name, array in sent.items()}
    got = {name: array.copy() for name, array in sent.items()}
    assert compare(1, sums, got, digest) == []
    flip_one_byte(got["a"])
    assert int((got["a"] != sent["a"]).sum()) == 1
    assert compare(1, sums, got, digest) == ["v1 a: bytes differ from what the trainer sent (sha256)"]
    del got["b"]
    got["c"] = sent["b"]
    assert compare(2, sums, got, digest)[1:] == ["v2 b: missing", "v2 c: unexpected tensor"]


class _RanksThatNeverStart:
    """Stands in for multiprocessing's spawn context (no torch in the fast suite): records the ranks
    run_local would start; none runs, so run_local reports them unfinished at once."""

    def __init__(self):
        self.started = []

    def Queue(self):
        import queue
        return queue.Queue()

    def Process(self, target, args):
        context = self

        class Rank:
            def start(self):
                context.started.append(args)

            def is_alive(self):
                return False

            def join(self, timeout=None):
                pass
        return Rank()


def test_a_local_syncs_parent_sets_the_engines_environment_and_leaves_the_stand_in_to_its_ranks(monkeypatch):
    """The stand-in imports verl and its engines: half a minute per process under QEMU. The ranks apply
    it themselves (run_rank), so the process that only spawns them must not."""
    import multiprocessing
    import os
    import sys
    import types

    from smoke_tests.sync import SyncConfig, harness

    from conftest import REPO

    monkeypatch.syspath_prepend(str(REPO / "payload" / "python"))
    applied = []
    standin = types.ModuleType("verl_image.cpu_standin")
    standin.apply = lambda: applied.append("parent")
    monkeypatch.setitem(sys.modules, "verl_image.cpu_standin", standin)
    engine_env = ("MC_FORCE_TCP", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER")
    for name in engine_env:  # setenv first records the variable's state: the test leaves the environment as found
        monkeypatch.setenv(name, "unset")
        monkeypatch.delenv(name)
    ranks = _RanksThatNeverStart()
    monkeypatch.setattr(multiprocessing, "get_context", lambda method: ranks)
    monkeypatch.setattr(harness, "connect", lambda host, port, master: types.SimpleNamespace(port=29500))
    report = harness.run_local(SyncConfig(backend="mooncake", versions=1, bucket_bytes=1 << 20), "cpu")
    assert applied == []
    assert [rank_args[1] for _, _, rank_args, _ in ranks.started] == [0, 1]  # runtime_patch.spawn's child entry
    assert [os.environ.get(name) for name in engine_env] == ["1", "0"]
    assert not report.ok and "did not finish" in report.error
