# The test's stand-in for the official etcd image (which needs a registry): Debian's
# etcd 3.4 binaries on the test's base image, at the paths the official image uses.
# Built by docker/test.sh from a context holding the two binaries.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
COPY etcd etcdctl /usr/local/bin/
ENV ETCDCTL_API=3
CMD ["etcd"]
