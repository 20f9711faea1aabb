# One image recipe for gateway, study-service, monolith and the runner (MODULE = directory = artifact).
#   docker build -f docker/app.Dockerfile --build-arg MODULE=gateway .                 # from source (default target)
#   docker build -f docker/app.Dockerfile --build-arg MODULE=gateway --target host .   # jar built on the host by ./mvnw package
# The `host` stage comes before the build stages on purpose: the classic (non-BuildKit) builder runs every
# stage up to the target, so `--target host` never needs the JDK image or the network.
ARG BASE_IMAGE=eclipse-temurin:25.0.4_7-jre
ARG BUILD_IMAGE=eclipse-temurin:25.0.4_7-jdk

FROM ${BASE_IMAGE} AS runtime
# curl is what the compose healthcheck calls; the Temurin images ship it, other bases may not.
RUN if ! command -v curl >/dev/null; then \
      apt-get update && apt-get install -y --no-install-recommends curl ca-certificates && rm -rf /var/lib/apt/lists/*; \
    fi \
 && useradd --system --uid 10001 --user-group --home-dir /app --shell /usr/sbin/nologin app \
 && mkdir -p /app /results && chown app:app /app /results
COPY docker/app-entrypoint.sh /usr/local/bin/app-entrypoint
WORKDIR /app
USER app
ENV LANG=C.UTF-8 \
    JAVA_OPTS="-Xmx256m" \
    SCOUTER_AGENT_DIR=/opt/scouter-agent
ENTRYPOINT ["app-entrypoint"]

# Host jars: <artifact>.jar, plus target/lib/ for a jar that lists its dependencies in Class-Path (runner).
# Both are copied in one COPY because the classic builder rejects a COPY whose only source matches nothing,
# then arranged as /app/app.jar + /app/lib/ (the Class-Path entries are relative to the jar's real location).
FROM runtime AS host-files
ARG MODULE
USER root
COPY ${MODULE}/target/${MODULE}.jar ${MODULE}/target/lib* /stage/lib/
RUN mkdir -p /out && mv "/stage/lib/${MODULE}.jar" /out/app.jar && mv /stage/lib /out/lib

FROM runtime AS host
ARG MODULE
COPY --from=host-files /out/ /app/
ENV APP_NAME=${MODULE}

FROM ${BUILD_IMAGE} AS build
ARG MODULE
WORKDIR /src
COPY . .
RUN test -n "${MODULE}" \
 && ./mvnw -B -q -ntp -pl "${MODULE}" -am -DskipTests package \
 && mkdir -p /out/lib \
 && cp "${MODULE}/target/${MODULE}.jar" /out/app.jar \
 && if [ -d "${MODULE}/target/lib" ]; then cp -r "${MODULE}/target/lib/." /out/lib/; fi

FROM runtime AS source
ARG MODULE
COPY --from=build /out/ /app/
ENV APP_NAME=${MODULE}
