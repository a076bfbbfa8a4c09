"""Network namespaces for the fault tests: one per node, a bridge between them, iptables faults.

Layout (everything is created by the test and removed by it; the host's own namespace,
firewall, routes and sysctls are never touched):

- a **hub** namespace holding a bridge ``br0``;
- one namespace per node (each etcd member, each broker, the clients), with ``lo`` up and
  one end of a veth pair at ``10.77.0.N/24``; the other end sits in the hub on the bridge.
  Both ends are created inside the namespaces (``ip link add ... netns``), so no interface
  ever appears in the host's namespace. There is no default route: a node reaches the
  other nodes of its /24 and nothing else.

Faults are iptables rules inside the namespaces the test made (filter table, a chain
``FAULTS`` that INPUT and OUTPUT jump to, flushed to heal):

- cut ``a`` from ``b``: in ``a``, drop packets from ``b`` and to ``b`` (one way: only to);
- loss: in the victim, drop a fraction of every packet in and out (``-m statistic``);
- the delay proxy's redirect (nat PREROUTING, see :mod:`tests.faults.delay_proxy`).

Every command runs through :func:`run` so a failure names the command and its output.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["NS_PREFIX", "Namespace", "Network", "leftover_namespaces", "run"]

SUBNET = "10.77.0"
PREFIX_LEN = 24
CHAIN = "FAULTS"
# Namespaces of this test are named sbf-<tag>-<node>; interfaces get at most 15 characters.
NS_PREFIX = "sbf-"


def run(*cmd: str, check: bool = True, timeout: float = 30.0) -> str:
    """Run one command; its stdout, or a RuntimeError naming it and what it printed."""
    done = subprocess.run(list(cmd), capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


@dataclass
class Namespace:
    """One node's namespace: its name (for ``ip netns exec``) and address on the bridge."""

    node: str
    name: str
    ip: str
    cut_from: set[str] = field(default_factory=set)

    def exec_prefix(self) -> list[str]:
        return ["ip", "netns", "exec", self.name]

    def iptables(self, *args: str, table: str = "filter") -> str:
        return run(*self.exec_prefix(), "iptables", "-w", "-t", table, *args)


class Network:
    """The hub, its bridge and the node namespaces of one test run (``tag`` keeps runs apart)."""

    def __init__(self, tag: str) -> None:
        if len(tag) > 6 or not tag.isalnum():
            raise ValueError("tag: at most 6 letters or digits (interface names are short)")
        self.tag = tag
        self.hub = f"{NS_PREFIX}{tag}-hub"
        self.nodes: dict[str, Namespace] = {}
        self._next_host = 10
        self._up = False

    def create(self) -> None:
        run("ip", "netns", "add", self.hub)
        self._up = True
        run("ip", "-n", self.hub, "link", "add", "br0", "type", "bridge")
        run("ip", "-n", self.hub, "link", "set", "br0", "up")
        run("ip", "-n", self.hub, "link", "set", "lo", "up")

    def add(self, node: str, host: int | None = None) -> Namespace:
        """A namespace for ``node`` with its address on the bridge (10.77.0.<host>)."""
        if node in self.nodes:
            return self.nodes[node]
        if host is None:
            host = self._next_host
            self._next_host += 1
        ns = Namespace(node, f"{NS_PREFIX}{self.tag}-{node}", f"{SUBNET}.{host}")
        run("ip", "netns", "add", ns.name)
        self.nodes[node] = ns
        inside, outside = f"eth{host}", f"v{self.tag}{host}"
        # Created in the hub and moved: the pair never exists in the host's namespace.
        run("ip", "-n", self.hub, "link", "add", outside, "type", "veth", "peer", "name", inside)
        run("ip", "-n", self.hub, "link", "set", inside, "netns", ns.name)
        run("ip", "-n", self.hub, "link", "set", outside, "master", "br0", "up")
        run("ip", "-n", ns.name, "link", "set", "lo", "up")
        run("ip", "-n", ns.name, "addr", "add", f"{ns.ip}/{PREFIX_LEN}", "dev", inside)
        run("ip", "-n", ns.name, "link", "set", inside, "up")
        # The fault chain, empty until a fault; INPUT and OUTPUT jump to it, lo excepted.
        ns.iptables("-N", CHAIN)
        ns.iptables("-A", "INPUT", "!", "-i", "lo", "-j", CHAIN)
        ns.iptables("-A", "OUTPUT", "!", "-o", "lo", "-j", CHAIN)
        return ns

    # --- faults ----------------------------------------------------------------------

    def cut(self, a: str, b: str, *, both_ways: bool = True) -> None:
        """Packets from ``a`` to ``b`` are dropped (and from ``b`` to ``a`` with both_ways).

        The rules sit in ``a``'s namespace: OUTPUT to ``b`` (and INPUT from ``b``)."""
        na, nb = self.nodes[a], self.nodes[b]
        na.iptables("-A", CHAIN, "-d", nb.ip, "-j", "DROP")
        if both_ways:
            na.iptables("-A", CHAIN, "-s", nb.ip, "-j", "DROP")
        na.cut_from.add(b)

    def isolate(self, node: str, from_nodes: Iterable[str]) -> None:
        for other in from_nodes:
            if other != node:
                self.cut(node, other)

    def loss(self, node: str, probability: float) -> None:
        """Drop ``probability`` of the packets ``node`` sends and of those it receives."""
        # The chain sees each packet once, on its way in (INPUT) or out (OUTPUT).
        self.nodes[node].iptables(
            "-A", CHAIN, "-m", "statistic", "--mode", "random", "--probability", f"{probability:.3f}", "-j", "DROP"
        )

    def heal(self, nodes: Sequence[str] | None = None) -> None:
        """Flush the fault chain of ``nodes`` (all by default)."""
        for name in nodes if nodes is not None else list(self.nodes):
            ns = self.nodes[name]
            ns.iptables("-F", CHAIN)
            ns.cut_from.clear()

    def redirect(self, node: str, ports: Iterable[int], offset: int) -> None:
        """TCP connections arriving at ``node`` on ``ports`` go to port+offset there instead
        (where the delay proxy listens). Local connections are not redirected."""
        ns = self.nodes[node]
        for port in ports:
            ns.iptables(
                "-A",
                "PREROUTING",
                "-p",
                "tcp",
                "-d",
                ns.ip,
                "--dport",
                str(port),
                "-j",
                "REDIRECT",
                "--to-ports",
                str(port + offset),
                table="nat",
            )

    def rules(self, node: str) -> str:
        return self.nodes[node].iptables("-S", CHAIN)

    # --- teardown --------------------------------------------------------------------

    def destroy(self) -> None:
        """Delete every namespace of this run (processes in them must be gone first)."""
        for ns in list(self.nodes.values()):
            run("ip", "netns", "del", ns.name, check=False)
        self.nodes.clear()
        if self._up:
            run("ip", "netns", "del", self.hub, check=False)
            self._up = False


def leftover_namespaces() -> list[str]:
    """Namespaces named like this module's (sbf-...), e.g. from a run that was killed."""
    out = run("ip", "netns", "list", check=False)
    return [line.split()[0] for line in out.splitlines() if line.startswith(NS_PREFIX)]
