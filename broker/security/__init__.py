"""Security: TLS contexts, SASL mechanisms, SCRAM credentials and the ACL authorizer.

Everything here is pure or takes its I/O from outside (a fetcher, a store path),
so the server wires it in: ``tls`` builds ``ssl.SSLContext`` objects from Kafka's
``ssl.*`` settings, ``sasl`` holds the server side of PLAIN, SCRAM-SHA-256/512 and
OAUTHBEARER for :class:`broker.protocol.auth.Authenticator`, ``scram`` the stored
SCRAM credentials, ``authorizer`` Kafka's StandardAuthorizer rules and
``api_acls`` which operation on which resource each API checks.
"""
