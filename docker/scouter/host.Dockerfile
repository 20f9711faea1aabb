# Scouter for the compose `apm` profile on machines without a container registry or GitHub (CI): the same targets
# as Dockerfile (server, webapp, agent), built from files fetched on the host into docker/scouter/dist/ by
#   docker/scouter/fetch.sh docker/scouter/dist        (Maven Central; the agent from SCOUTER_AGENT_JAR or GitHub)
# Selected by docker-compose.offline.yml. Runtime settings are those of Dockerfile.
ARG BASE_IMAGE=lab-jre:25

FROM ${BASE_IMAGE} AS server
RUN useradd --system --uid 10002 --user-group --home-dir /scouter scouter \
 && mkdir -p /scouter/conf /scouter/data && chown -R scouter:scouter /scouter
COPY dist/server/lib /scouter/lib
COPY server.conf /scouter/conf/scouter.conf
WORKDIR /scouter
USER scouter
EXPOSE 6100/tcp 6100/udp
ENV JAVA_OPTS="-Xmx256m"
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS --add-opens=java.base/java.lang=ALL-UNNAMED --add-exports=java.base/sun.net=ALL-UNNAMED -Dscouter.config=/scouter/conf/scouter.conf -cp '/scouter/lib/*' scouter.server.Main"]

FROM ${BASE_IMAGE} AS webapp
RUN useradd --system --uid 10003 --user-group --home-dir /scouter-webapp scouter \
 && mkdir -p /scouter-webapp/conf /scouter-webapp/logs /scouter-webapp/tempdata && chown -R scouter:scouter /scouter-webapp
COPY dist/webapp/lib /scouter-webapp/lib
COPY webapp.conf /scouter-webapp/conf/scouter.conf
WORKDIR /scouter-webapp
USER scouter
EXPOSE 6188/tcp
ENV JAVA_OPTS="-Xmx128m"
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -Dscouter.config=/scouter-webapp/conf/scouter.conf -cp '/scouter-webapp/lib/*' scouterx.webapp.main.WebAppMain"]

FROM ${BASE_IMAGE} AS agent
COPY dist/agent/scouter.agent.jar /dist/scouter.agent.jar
COPY agent.conf /dist/conf/scouter.conf
CMD ["sh", "-c", "rm -rf /opt/scouter-agent/* && cp -a /dist/. /opt/scouter-agent/ && echo scouter agent copied"]
