"""Security settings (TLS, SASL, ACLs, delegation tokens, OAUTHBEARER), read by broker.security
when a listener uses them.

Pure data: one :class:`Setting` per key, in the order of docs/CONFIG.md."""

from __future__ import annotations

from broker.config.model import ConfigType, Setting
from broker.config.table.names import LST, SEC, STR, B, I, L

SETTINGS: tuple[Setting, ...] = (
    # ---- security (TLS, SASL, ACLs): read by broker.security when a listener uses them
    *(
        Setting(key, t, default, section=SEC, doc=doc, sensitive=t is ConfigType.PASSWORD, **extra)
        for key, t, default, doc, extra in (
            (
                "ssl.keystore.type",
                STR,
                "PEM",
                "Format of the broker's key and certificate chain.",
                {
                    "choices": ("PEM",),
                    "kafka_default": "JKS",
                    "why": "keys are loaded by OpenSSL, which reads PEM; convert JKS/PKCS12 with openssl or keytool",
                },
            ),
            (
                "ssl.keystore.location",
                STR,
                None,
                "PEM file holding the broker's private key and certificate chain.",
                {},
            ),
            (
                "ssl.keystore.key",
                ConfigType.PASSWORD,
                None,
                "The broker's private key as inline PEM (with ssl.keystore.certificate.chain).",
                {},
            ),
            (
                "ssl.keystore.certificate.chain",
                ConfigType.PASSWORD,
                None,
                "The broker's certificate chain as inline PEM.",
                {},
            ),
            ("ssl.key.password", ConfigType.PASSWORD, None, "Password of an encrypted private key.", {}),
            (
                "ssl.truststore.type",
                STR,
                "PEM",
                "Format of the CA certificates client certificates are checked against.",
                {"choices": ("PEM",), "kafka_default": "JKS", "why": "as ssl.keystore.type"},
            ),
            ("ssl.truststore.location", STR, None, "PEM file of trusted CA certificates.", {}),
            ("ssl.truststore.certificates", ConfigType.PASSWORD, None, "Trusted CA certificates as inline PEM.", {}),
            (
                "ssl.client.auth",
                STR,
                "none",
                "Whether TLS clients must (required), may (requested) or need not (none) present a certificate.",
                {"choices": ("none", "requested", "required")},
            ),
            (
                "ssl.enabled.protocols",
                LST,
                ("TLSv1.2", "TLSv1.3"),
                "TLS versions accepted.",
                {"choices": ("TLSv1.2", "TLSv1.3"), "why": "older TLS versions are broken and refused"},
            ),
            (
                "ssl.cipher.suites",
                LST,
                None,
                "TLS 1.2 cipher suites (IANA or OpenSSL names); unset: OpenSSL's defaults. TLS 1.3 suites are always OpenSSL's.",
                {},
            ),
            (
                "ssl.principal.mapping.rules",
                STR,
                "DEFAULT",
                "Rules (RULE:pattern/replacement/[LU], DEFAULT) mapping a client certificate's DN to the principal name.",
                {},
            ),
            (
                "sasl.enabled.mechanisms",
                LST,
                ("PLAIN",),
                "SASL mechanisms offered on SASL listeners.",
                {
                    "choices": ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"),
                    "kafka_default": "GSSAPI",
                    "why": "Kerberos (GSSAPI) is not implemented",
                },
            ),
            (
                "sasl.server.max.receive.size",
                I,
                524288,
                "Largest frame accepted before and during the first SASL authentication.",
                {"min": 1, "why": "bounds what an unauthenticated peer can make the broker buffer"},
            ),
            (
                "connection.failed.authentication.delay.ms",
                I,
                100,
                "Time by which closing a connection is delayed after a failed authentication, once its answer "
                "is sent: slows down password guessing and lets the client read the answer before the close.",
                {"min": 0},
            ),
            (
                "connections.max.reauth.ms",
                L,
                0,
                "Positive: SASL sessions last at most this long and clients must re-authenticate (KIP-368); 0: no limit.",
                {"min": 0},
            ),
            (
                "sasl.mechanism.inter.broker.protocol",
                STR,
                "PLAIN",
                "SASL mechanism brokers use with each other when the inter-broker listener is SASL_PLAINTEXT "
                "or SASL_SSL; the user name and password are the username and password options of that "
                "listener's sasl.jaas.config for the mechanism.",
                {
                    "choices": ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"),
                    "kafka_default": "GSSAPI",
                    "why": "Kerberos (GSSAPI) is not implemented",
                },
            ),
            (
                "ssl.endpoint.identification.algorithm",
                STR,
                "https",
                "How a broker checks another broker's certificate on the inter-broker listener: https "
                "(the host name must match the certificate) or empty (the certificate chain only).",
                {"choices": ("https", "")},
            ),
            (
                "authorizer.class.name",
                STR,
                "",
                "Empty: no ACL checks. org.apache.kafka.metadata.authorizer.StandardAuthorizer: check ACLs.",
                {"choices": ("", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")},
            ),
            (
                "super.users",
                STR,
                None,
                "Principals allowed everything, separated by semicolons (User:admin;User:CN=ops,O=corp).",
                {},
            ),
            ("allow.everyone.if.no.acl.found", B, False, "Allow an operation on a resource no ACL names at all.", {}),
            (
                "delegation.token.secret.key",
                ConfigType.PASSWORD,
                None,
                "Secret key delegation tokens are signed with (HMAC-SHA512 of the token id); the same on every "
                "broker of a cluster. Unset or empty: delegation tokens are turned off.",
                {},
            ),
            (
                "delegation.token.max.lifetime.ms",
                L,
                604800000,
                "Longest life of a delegation token; it cannot be renewed past it.",
                {"min": 1},
            ),
            (
                "delegation.token.expiry.time.ms",
                L,
                86400000,
                "How long a delegation token stays valid after it is made or renewed, unless renewed again.",
                {"min": 1},
            ),
            (
                "delegation.token.expiry.check.interval.ms",
                L,
                3600000,
                "How often tokens past their expiry are removed.",
                {"min": 1},
            ),
            (
                "sasl.oauthbearer.jwks.endpoint.url",
                STR,
                None,
                "https, http or file URL of the JWKS that signs OAUTHBEARER tokens; unset: Kafka's unsecured JWS validator (development only).",
                {},
            ),
            (
                "sasl.oauthbearer.jwks.endpoint.refresh.ms",
                L,
                3600000,
                "How often the JWKS is fetched again.",
                {"min": 1},
            ),
            (
                "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
                L,
                100,
                "Least time between fetches when a token names an unknown key id.",
                {"min": 0},
            ),
            (
                "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
                L,
                10000,
                "Longest wait between failed JWKS fetches.",
                {"min": 0},
            ),
            (
                "sasl.oauthbearer.expected.audience",
                LST,
                None,
                "Audiences a token must name (aud); unset: not checked.",
                {},
            ),
            ("sasl.oauthbearer.expected.issuer", STR, None, "Issuer a token must name (iss); unset: not checked.", {}),
            ("sasl.oauthbearer.scope.claim.name", STR, "scope", "Claim holding a token's scopes.", {}),
            ("sasl.oauthbearer.sub.claim.name", STR, "sub", "Claim holding a token's principal name.", {}),
            (
                "sasl.oauthbearer.clock.skew.seconds",
                I,
                30,
                "Clock difference tolerated when checking exp and iat.",
                {"min": 0},
            ),
        )
    ),
)
