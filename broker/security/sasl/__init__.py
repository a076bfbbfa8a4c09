"""Server-side SASL mechanisms: each a :class:`broker.protocol.auth.SaslServer`.

``mechanism_factories`` builds the name -> factory map the authenticator takes.
"""

from __future__ import annotations

from broker.security.sasl.oauthbearer import OAuthBearerServer
from broker.security.sasl.plain import PlainServer
from broker.security.sasl.scram import SCRAM_MECHANISMS, ScramServer

__all__ = ["SCRAM_MECHANISMS", "OAuthBearerServer", "PlainServer", "ScramServer"]
