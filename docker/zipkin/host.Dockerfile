# Zipkin for the compose `tracing` profile on machines without a container registry (CI): the stand-in for the public
# openzipkin/zipkin image, the same server (io.zipkin:zipkin-server exec jar, Maven Central) fetched on the host by
#   docker/zipkin/fetch.sh docker/zipkin/dist
# Selected by docker-compose.offline.yml. In-memory storage, port 9411, as the public image.
ARG BASE_IMAGE=lab-jre:25
FROM ${BASE_IMAGE}
RUN useradd --system --uid 10004 --user-group --home-dir /zipkin zipkin && mkdir -p /zipkin
COPY dist/zipkin-server-*-exec.jar /zipkin/zipkin.jar
WORKDIR /zipkin
USER zipkin
EXPOSE 9411
ENV JAVA_OPTS="-Xmx256m"
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /zipkin/zipkin.jar"]
