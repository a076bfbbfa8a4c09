"""Each listener's security, built from the settings: TLS context, SASL mechanisms, principals.

:func:`build_listener_security` reads, per named listener, the listener-prefixed
settings Kafka uses (``listener.name.<l>.ssl.*``,
``listener.name.<l>.sasl.enabled.mechanisms``,
``listener.name.<l>.<mechanism>.sasl.jaas.config``,
``listener.name.<l>.<mechanism>.connections.max.reauth.ms``) over the plain ones,
and returns what a connection on that listener needs:

* SSL and SASL_SSL: an ``ssl.SSLContext`` (TLS 1.2/1.3 only, client certificates
  as ``ssl.client.auth`` says) and the principal mapping of client certificates;
* SASL_PLAINTEXT and SASL_SSL: an :class:`~broker.protocol.auth.Authenticator` per
  connection with the enabled mechanisms: PLAIN checks the ``user_<name>`` options
  of the listener's PLAIN JAAS entry, SCRAM the stored credentials (or, with
  ``tokenauth=true``, those derived from a delegation token), OAUTHBEARER
  tokens with Kafka's unsecured validator (options ``unsecuredValidator*`` of the
  JAAS entry) or, when ``sasl.oauthbearer.jwks.endpoint.url`` is set, against the
  JWKS (refreshed by :func:`run_jwks_refresh` in the server's nursery).

A setting that cannot work (no keystore on a TLS listener, PLAIN without users, an
unknown mechanism) raises :class:`ListenerSecurityError` with one line naming the key.

The inter-broker client side (:func:`inter_broker_connector`) connects to another
broker's inter-broker listener with TLS and SASL as that listener requires.
"""

from __future__ import annotations

import functools
import ssl
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import structlog
import trio

from broker.config import BrokerConfig
from broker.protocol.auth import (
    Authenticator,
    AuthSettings,
    KafkaPrincipal,
    SaslServerFactory,
    SecurityProtocol,
)
from broker.protocol.connection import CONNECTION_CLOSED, NEED_DATA, ClientConnection
from broker.security.client import ClientSecurity, client_ssl_context
from broker.security.jaas import JaasConfigError, parse_jaas_config
from broker.security.sasl.client import SaslClientExchange
from broker.security.sasl.oauthbearer import (
    JwksKeyCache,
    JwksValidator,
    OAuthBearerServer,
    TokenValidator,
    UnsecuredJwsValidator,
    url_fetcher,
)
from broker.security.sasl.plain import PLAIN_LOGIN_MODULE, PlainServer, StaticPlainCredentials
from broker.security.sasl.scram import SCRAM_MECHANISMS, ScramLookup, ScramServer, TokenLookup
from broker.security.tls import (
    NoMatchingRule,
    SslConfigError,
    SslPrincipalMapper,
    principal_from_certificate,
    server_context,
)

__all__ = [
    "ListenerSecurity",
    "ListenerSecurityError",
    "build_listener_security",
    "inter_broker_connector",
    "run_jwks_refresh",
]

log = structlog.get_logger("sharebroker.security")


class ListenerSecurityError(ValueError):
    """A listener's security settings cannot work; ``str()`` is one line naming the key."""


@dataclass
class ListenerSecurity:
    name: str
    protocol: SecurityProtocol
    ssl_context: ssl.SSLContext | None = None
    mapper: SslPrincipalMapper | None = None
    auth_settings: AuthSettings | None = None
    mechanisms: dict[str, SaslServerFactory] = field(default_factory=dict)

    def authenticator(self) -> Authenticator | None:
        """A fresh authentication state for a new connection (None: no SASL on this listener)."""
        if self.auth_settings is None:
            return None
        return Authenticator(self.auth_settings, self.mechanisms)

    def tls_principal(self, der: bytes | None) -> KafkaPrincipal:
        """The principal of a TLS client from its certificate (ANONYMOUS without one).
        Raises NoMatchingRule when ssl.principal.mapping.rules has no rule for the name."""
        assert self.mapper is not None
        return principal_from_certificate(der, self.mapper)


class _LateScram:
    """SCRAM lookups answered by the credential store once the services exist."""

    def __init__(self) -> None:
        self.lookup: ScramLookup | None = None

    def __call__(self, user: str, mechanism: str) -> Any:
        return None if self.lookup is None else self.lookup(user, mechanism)


class _LateTokens:
    """Delegation-token lookups (SCRAM ``tokenauth=true``) answered once the services exist."""

    def __init__(self) -> None:
        self.lookup: TokenLookup | None = None

    def __call__(self, token_id: str, mechanism: str) -> Any:
        return None if self.lookup is None else self.lookup(token_id, mechanism)


@dataclass
class SecurityRuntime:
    """What the listeners share: the SCRAM and token store hooks and the JWKS caches to refresh."""

    scram: _LateScram = field(default_factory=_LateScram)
    tokens: _LateTokens = field(default_factory=_LateTokens)
    jwks: dict[str, JwksKeyCache] = field(default_factory=dict)
    jwks_backoff_max_ms: int = 10_000


def _jaas_options(config: BrokerConfig, listener: str, mechanism: str) -> dict[str, str] | None:
    text = config.listener_setting(listener, "sasl.jaas.config", mechanism)
    if text is None:
        return None
    key = f"listener.name.{listener.lower()}.{mechanism.lower()}.sasl.jaas.config"
    try:
        return parse_jaas_config(str(text)).options
    except JaasConfigError as exc:
        raise ListenerSecurityError(f"{key}: {exc}") from None


def _int(view: Mapping[str, Any], key: str) -> int:
    """A setting the config table types as an integer (with a default)."""
    value = view.get(key)
    assert value is not None, key
    return int(value)


def _oauth_validator(config: BrokerConfig, listener: str, runtime: SecurityRuntime) -> TokenValidator:
    view = config.for_listener(listener)
    url = view.get("sasl.oauthbearer.jwks.endpoint.url")
    if not url:
        options = _jaas_options(config, listener, "OAUTHBEARER") or {}
        try:
            return UnsecuredJwsValidator.from_jaas_options(options)
        except ValueError as exc:
            raise ListenerSecurityError(
                f"listener.name.{listener.lower()}.oauthbearer.sasl.jaas.config: {exc}"
            ) from None
    cache = runtime.jwks.get(url)
    if cache is None:
        try:
            fetcher = url_fetcher(str(url))
        except ValueError as exc:
            raise ListenerSecurityError(str(exc)) from None
        cache = JwksKeyCache(
            fetcher,
            refresh_ms=_int(view, "sasl.oauthbearer.jwks.endpoint.refresh.ms"),
            retry_backoff_ms=_int(view, "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms"),
        )
        runtime.jwks[str(url)] = cache
        runtime.jwks_backoff_max_ms = _int(view, "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms")
    audience = view.get("sasl.oauthbearer.expected.audience") or ()
    return JwksValidator(
        cache,
        expected_audience=tuple(audience),
        expected_issuer=view.get("sasl.oauthbearer.expected.issuer"),
        scope_claim_name=str(view.get("sasl.oauthbearer.scope.claim.name") or "scope"),
        sub_claim_name=str(view.get("sasl.oauthbearer.sub.claim.name") or "sub"),
        clock_skew_seconds=_int(view, "sasl.oauthbearer.clock.skew.seconds"),
    )


def _mechanism_factories(
    config: BrokerConfig, listener: str, enabled: tuple[str, ...], runtime: SecurityRuntime
) -> dict[str, SaslServerFactory]:
    factories: dict[str, SaslServerFactory] = {}
    for mechanism in enabled:
        if mechanism == "PLAIN":
            options = _jaas_options(config, listener, "PLAIN")
            key = f"listener.name.{listener.lower()}.plain.sasl.jaas.config"
            if options is None:
                raise ListenerSecurityError(
                    f"{key}: required for PLAIN on listener {listener} "
                    f'({PLAIN_LOGIN_MODULE} required user_<name>="<password>" ...;)'
                )
            users = {k[len("user_") :]: v for k, v in options.items() if k.startswith("user_")}
            credentials = StaticPlainCredentials(users)
            factories["PLAIN"] = functools.partial(PlainServer, credentials)
        elif mechanism in SCRAM_MECHANISMS:
            factories[mechanism] = functools.partial(ScramServer, mechanism, runtime.scram, runtime.tokens)
        elif mechanism == "OAUTHBEARER":
            validator = _oauth_validator(config, listener, runtime)
            factories["OAUTHBEARER"] = functools.partial(OAuthBearerServer, validator)
        else:  # the config table's choices keep this from happening
            raise ListenerSecurityError(f"sasl.enabled.mechanisms: {mechanism} is not supported")
    return factories


def build_listener_security(config: BrokerConfig, runtime: SecurityRuntime) -> dict[str, ListenerSecurity]:
    """{listener name: its security} for every listener in ``listeners``."""
    out: dict[str, ListenerSecurity] = {}
    for lst in config.listeners:
        protocol = SecurityProtocol(config.security_protocol(lst.name))
        sec = ListenerSecurity(lst.name, protocol)
        view = config.for_listener(lst.name)
        if protocol.uses_tls:
            try:
                sec.ssl_context = server_context(view)
            except SslConfigError as exc:
                raise ListenerSecurityError(f"listener {lst.name}: {exc}") from None
            try:
                sec.mapper = SslPrincipalMapper(view.get("ssl.principal.mapping.rules"))
            except ValueError as exc:
                raise ListenerSecurityError(str(exc)) from None
        if protocol.uses_sasl:
            enabled = tuple(view.get("sasl.enabled.mechanisms") or ())
            if not enabled:
                raise ListenerSecurityError(f"sasl.enabled.mechanisms: listener {lst.name} needs at least one")
            sec.mechanisms = _mechanism_factories(config, lst.name, enabled, runtime)
            reauth = {m: int(config.listener_setting(lst.name, "connections.max.reauth.ms", m) or 0) for m in enabled}
            sec.auth_settings = AuthSettings(
                protocol,
                enabled_mechanisms=enabled,
                max_reauth_ms=reauth,
                default_max_reauth_ms=int(view.get("connections.max.reauth.ms") or 0),
                max_receive_size=_int(view, "sasl.server.max.receive.size"),
            )
        out[lst.name] = sec
    return out


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


async def run_jwks_refresh(runtime: SecurityRuntime, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
    """Keep every JWKS cache fresh: at its refresh interval, soon after a token names an
    unknown key id, and with a doubling back-off (up to ...retry.backoff.max.ms) after failures."""
    failures: dict[str, int] = {}
    next_try: dict[str, float] = {}
    task_status.started()
    while True:
        for url, cache in runtime.jwks.items():
            now = trio.current_time()
            if now < next_try.get(url, 0.0) or not cache.refresh_due(wall_ms()):
                continue
            try:
                count = await trio.to_thread.run_sync(cache.refresh, wall_ms())
            except Exception as exc:
                n = failures.get(url, 0) + 1
                failures[url] = n
                delay_ms = min(runtime.jwks_backoff_max_ms, cache.retry_backoff_ms * 2 ** min(n - 1, 20))
                next_try[url] = now + delay_ms / 1000
                log.warning("jwks_refresh_failed", url=url, error=str(exc), retry_in_ms=delay_ms)
            else:
                if failures.pop(url, None) is not None or count == 0:
                    log.info("jwks_refreshed", url=url, keys=count)
                next_try.pop(url, None)
        backoff = min((c.retry_backoff_ms for c in runtime.jwks.values()), default=1000)
        await trio.sleep(max(0.05, min(1.0, backoff / 1000)))


def principal_or_none(sec: ListenerSecurity, der: bytes | None) -> KafkaPrincipal | None:
    try:
        return sec.tls_principal(der)
    except (NoMatchingRule, ValueError) as exc:
        log.warning("tls_principal_unmapped", listener=sec.name, error=str(exc))
        return None


# --------------------------------------------------------------------------- inter-broker client

Connector = Callable[[str, int], Awaitable[trio.abc.Stream]]


def inter_broker_security(config: BrokerConfig) -> ClientSecurity | None:
    """How this broker connects to the others' inter-broker listener (None: plain TCP)."""
    name = config.inter_broker_listener_name
    protocol = SecurityProtocol(config.security_protocol(name))
    if protocol is SecurityProtocol.PLAINTEXT:
        return None
    view = config.for_listener(name)
    out = ClientSecurity(protocol)
    if protocol.uses_tls:
        props = {k: view.get(k) for k in ("ssl.truststore.location", "ssl.truststore.certificates")}
        props.update(
            {
                "ssl.keystore.location": view.get("ssl.keystore.location"),
                "ssl.keystore.key": view.get("ssl.keystore.key"),
                "ssl.keystore.certificate.chain": view.get("ssl.keystore.certificate.chain"),
                "ssl.key.password": view.get("ssl.key.password"),
                "ssl.endpoint.identification.algorithm": config.get("ssl.endpoint.identification.algorithm"),
            }
        )
        try:
            out.ssl_context = client_ssl_context(props)
        except ValueError as exc:
            raise ListenerSecurityError(f"inter-broker listener {name}: {exc}") from None
    if protocol.uses_sasl:
        mechanism = config.get("sasl.mechanism.inter.broker.protocol")
        options = _jaas_options(config, name, mechanism) or {}
        if not options.get("username"):
            raise ListenerSecurityError(
                f"listener.name.{name.lower()}.{mechanism.lower()}.sasl.jaas.config: needs username and password "
                f"options: brokers authenticate to each other with them ({mechanism}, sasl.mechanism.inter.broker.protocol)"
            )
        out.mechanism, out.username, out.password = mechanism, options["username"], options.get("password", "")
    return out


async def _authenticate(stream: trio.abc.Stream, security: ClientSecurity) -> None:
    client = security.new_sasl_client()
    if client is None:
        return
    conn = ClientConnection(client_id="sharebroker-inter-broker")
    exchange = SaslClientExchange(client)
    step: Any = exchange.first()
    while step is not None:
        request, version = step
        _, frame = conn.encode_request(request, version)
        await stream.send_all(frame)
        while True:
            event = conn.next_event()
            if event is NEED_DATA:
                data = await stream.receive_some(65536)
                conn.receive_data(data)
                continue
            if event is CONNECTION_CLOSED:
                raise ConnectionError("the broker closed the connection during SASL authentication")
            break
        step = exchange.next(event.body)


def inter_broker_connector(security: ClientSecurity | None) -> Connector:
    """Open a stream to a broker's inter-broker listener, with TLS and SASL as it needs."""

    async def connect(host: str, port: int) -> trio.abc.Stream:
        stream: trio.abc.Stream = await trio.open_tcp_stream(host, port)
        if security is None:
            return stream
        try:
            if security.ssl_context is not None:
                tls = trio.SSLStream(stream, security.ssl_context, server_hostname=host, https_compatible=True)
                await tls.do_handshake()
                stream = tls
            await _authenticate(stream, security)
        except BaseException:
            await trio.aclose_forcefully(stream)
            raise
        return stream

    return connect
