"""`docker compose config` of every compose file, and what it must say.

The listener layout is checked here rather than found out by a client: each broker
advertises for the host exactly the port that is published for it (on 127.0.0.1), no two
brokers advertise the same address, the in-network address is the broker's own host name,
and only the `edge` network (which exists for published ports) is not internal.
"""

from __future__ import annotations

import os

import pytest
from docker_helpers import CLUSTER_MODE, CONFIGS, Compose, compose_env

from broker.config import ConfigError, load_config, parse_listener

COMPOSE_FILES = ("compose.yaml", "compose.single.yaml")
HOST_NAMES = ("localhost", "127.0.0.1")


# The web console's service runs the same image (sharebroker ui), not a broker.
UI_SERVICE = "ui"


def broker_services(cfg: dict) -> dict[str, dict]:
    image = os.environ["SB_IMAGE"]
    return {name: svc for name, svc in cfg["services"].items() if svc.get("image") == image and name != UI_SERVICE}


def unknown_settings(env: dict[str, str]) -> list[str]:
    """The SHAREBROKER_* variables that name no setting of this broker."""
    unknown = []
    for name, value in env.items():
        try:
            load_config(None, [], environ={name: value})
        except ConfigError as e:
            if "no setting is named" in str(e):
                unknown.append(name)
    return sorted(unknown)


@pytest.mark.parametrize("compose_file", COMPOSE_FILES)
def test_compose_config(compose_file: str) -> None:
    compose = Compose((compose_file,), compose_env())
    CONFIGS[compose_file] = compose("config")  # the resolved file, printed at the end of the run
    cfg = compose.config()
    brokers = broker_services(cfg)
    assert brokers, f"{compose_file}: no service runs {os.environ['SB_IMAGE']}"

    # Networks: internal except `edge`; published ports need `edge`, and only they use it.
    for name, net in cfg["networks"].items():
        assert bool(net.get("internal")) is (name != "edge"), f"network {name}: internal={net.get('internal')}"
    for name, svc in cfg["services"].items():
        if svc.get("network_mode", "").startswith("service:"):
            continue  # in another service's namespace: its ports are that service's
        on_edge = "edge" in (svc.get("networks") or {})
        assert on_edge == bool(svc.get("ports")), f"{name}: on edge={on_edge}, ports={svc.get('ports')}"
        for port in svc.get("ports") or []:
            assert port.get("host_ip") == "127.0.0.1", f"{name}: port {port} is not bound to 127.0.0.1"

    external: dict[str, str] = {}
    for name, svc in brokers.items():
        env = svc["environment"]
        listeners = {lst.name: lst for lst in map(parse_listener, env["SHAREBROKER_LISTENERS"].split(","))}
        advertised = [parse_listener(x) for x in env["SHAREBROKER_ADVERTISED_LISTENERS"].split(",")]
        published = {int(p["published"]): int(p["target"]) for p in svc.get("ports") or []}
        host_facing = [a for a in advertised if a.host in HOST_NAMES]
        assert len(host_facing) == 1, f"{name}: advertises {len(host_facing)} listeners for the host"
        for adv in advertised:
            assert adv.name in listeners, f"{name}: advertises {adv.name}, which it does not listen on"
            if adv.host in HOST_NAMES:
                # What a host client is told must be this broker's own published port,
                # forwarded to the listener of the same name.
                assert published.get(adv.port) == listeners[adv.name].port, (
                    f"{name}: advertises {adv} but publishes {published}"
                )
                external[name] = f"{adv.host}:{adv.port}"
            else:
                assert adv.host in (svc.get("hostname"), name), f"{name}: advertises {adv} for the network"
                assert adv.port == listeners[adv.name].port, f"{name}: advertises {adv}, listens on {listeners}"
        if len(advertised) == 1:
            print(f"{name}: one listener, for the host only ({external[name]}); containers need named listeners")
    assert len(set(external.values())) == len(external), f"brokers share an advertised address: {external}"

    # Every SHAREBROKER_* variable must be a setting the broker knows (it refuses to start
    # otherwise). The cluster file's settings arrive with cluster mode.
    for name, svc in brokers.items():
        env = {k: v for k, v in svc["environment"].items() if k.startswith("SHAREBROKER_")}
        pending = unknown_settings(env)
        if compose_file == "compose.yaml" and not CLUSTER_MODE:
            print(f"{name}: settings the broker does not have yet: {pending or 'none'}")
            continue
        assert not pending, f"{name}: the broker has no setting for {pending}"
        load_config(None, [], environ=env)  # and the values are valid together


@pytest.mark.parametrize("compose_file", COMPOSE_FILES)
def test_compose_defaults(compose_file: str) -> None:
    """As a user runs it (none of the test's variables): the default images and ports."""
    blank = {"SB_IMAGE": "", "SB_BASE_IMAGE": "", "SB_ETCD_IMAGE": ""}
    cfg = Compose((compose_file,), blank).config()
    for name, svc in cfg["services"].items():
        if name.startswith("etcd"):
            assert svc["image"] == "gcr.io/etcd-development/etcd:v3.5.17"
            continue
        assert svc["image"] == "sharebroker:dev"
        if name == UI_SERVICE:
            assert "build" not in svc, "the console runs the image the brokers build"
            continue
        assert svc["build"]["args"]["BASE_IMAGE"] == "python:3.11-slim-bookworm"
        assert svc["build"]["dockerfile"] == "docker/Dockerfile"
    published = sorted(int(p["published"]) for svc in cfg["services"].values() for p in svc.get("ports") or [])
    # The brokers' ports and the console's (8080).
    assert published == ([8080, 9092] if compose_file == "compose.single.yaml" else [8080, 19092, 19093, 19094])
