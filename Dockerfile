# Admiralty in a container: `docker build -t admiralty .` then `docker run --env-file .env admiralty`,
# or `docker compose up` (compose.yaml: PostgreSQL and two bot processes on split shards).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin admiralty
WORKDIR /app

# Built into a wheel and installed like any package (the games' data goes with it, as admiralty_data);
# the sources are removed, so the bot runs from site-packages only. asyncpg (PostgreSQL) is a
# dependency of the package: SQLite and PostgreSQL both work without an extra.
COPY pyproject.toml README.md LICENSE /tmp/src/
COPY bot /tmp/src/bot
COPY cogs /tmp/src/cogs
COPY rendering /tmp/src/rendering
COPY data /tmp/src/data
RUN pip wheel --no-deps --wheel-dir /tmp/dist /tmp/src \
    && pip install /tmp/dist/admiralty-*.whl \
    && rm -rf /tmp/src /tmp/dist \
    && mkdir -p /app/state && chown admiralty:admiralty /app/state

USER admiralty
# With SQLite (ADMIRALTY_DB unset or a path), keep the database on a volume mounted here.
ENV ADMIRALTY_DB=/app/state/admiralty.db
VOLUME ["/app/state"]
# Prometheus metrics, when ADMIRALTY_METRICS_PORT is set (listen on 0.0.0.0 in a container).
EXPOSE 9108

CMD ["python", "-m", "bot", "run"]
