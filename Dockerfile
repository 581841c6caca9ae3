# Admiralty in a container: `docker build -t admiralty .` then `docker run --env-file .env admiralty`,
# or `docker compose up` (compose.yaml: PostgreSQL and two bot processes on split shards).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The optional dependencies to install (the PostgreSQL driver's extra); empty for SQLite only.
ARG EXTRAS=postgres

RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin admiralty
WORKDIR /app

# The games read their data (cards, boards) from the source tree, so the package is installed in
# place (editable), from /app.
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY rendering ./rendering
COPY data ./data
RUN pip install --editable ".${EXTRAS:+[$EXTRAS]}" \
    && mkdir -p /app/state && chown admiralty:admiralty /app/state

USER admiralty
# With SQLite (ADMIRALTY_DB unset or a path), keep the database on a volume mounted here.
ENV ADMIRALTY_DB=/app/state/admiralty.db
VOLUME ["/app/state"]
# Prometheus metrics, when ADMIRALTY_METRICS_PORT is set (listen on 0.0.0.0 in a container).
EXPOSE 9108

CMD ["python", "-m", "bot", "run"]
