# craits-server in a container: a non-root user, the journal in the /data volume.
#   docker build -t craits .
#   docker run -d --name craits -p 7777:7777 -v craits-data:/data craits
#   docker logs craits                      (one JSON object per line)
#   docker exec craits craits-server status localhost
# Settings: CRAITS_* environment variables (-e CRAITS_MAX_TABLES=100), or a TOML
# file mounted and named with -e CRAITS_CONFIG=/etc/craits/craits-server.toml.
# Metrics: -e CRAITS_METRICS_PORT=9464 -e CRAITS_METRICS_HOST=0.0.0.0 -p 9464:9464
# In web browsers too (craits-web beside the server, as --web 8080; visitors' names
# and seats kept in the volume; each visitor counted as their own address):
#   docker run -d --name craits -p 7777:7777 -p 8080:8080 -e CRAITS_WEB=8080 \
#     -v craits-data:/data craits                 then open http://HOST:8080/
# Behind an HTTPS reverse proxy (README, Hosting, "In a web browser"), add
#   -e CRAITS_WEB_TRUSTED_PROXY=172.17.0.1
# (the proxy's address as the container sees it; its X-Forwarded-Proto and -Host are
# then believed), and CRAITS_WEB_PUBLIC_URL=https://example.org/cards if it serves the
# page under a path of its own; CRAITS_WEB_MAX_SESSIONS (default 50).
FROM python:3.12-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY protocol protocol
COPY server server
COPY client client
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.12-slim
RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin craits \
    && install -d -o craits -g craits -m 0700 /data
COPY --from=build /wheels /wheels
# prometheus_client: the craits[metrics] extra, for --metrics-port
RUN pip install --no-cache-dir /wheels/*.whl "prometheus_client>=0.20,<1" && rm -rf /wheels
ENV CRAITS_HOST=0.0.0.0 \
    CRAITS_DATA_DIR=/data \
    CRAITS_LOG_FORMAT=json \
    PYTHONUNBUFFERED=1
USER craits
WORKDIR /data
VOLUME ["/data"]
# 7777: the game (craits-client, craits-bot); 8080: the web page, with CRAITS_WEB=8080
EXPOSE 7777 8080
# SIGTERM stops the server cleanly (clients told 'shutdown', the journal committed)
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=10s --start-period=10s --retries=3 \
    CMD craits-server status "127.0.0.1:${CRAITS_PORT:-7777}" --timeout 5 || exit 1
ENTRYPOINT ["craits-server"]
