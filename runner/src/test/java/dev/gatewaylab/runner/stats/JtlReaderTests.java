package dev.gatewaylab.runner.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JtlReaderTests {

	@TempDir
	Path tmp;

	@Test
	void readsJMeterCsvByHeaderNamesIncludingQuotedCommas() throws IOException {
		Path jtl = tmp.resolve("a.jtl");
		Files.writeString(jtl,
				"""
						timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect
						1700000000000,12,GET /api/studies/{id},200,OK,readers 1-1,text,true,,274,131,2,2,http://127.0.0.1:8080/api/studies/7,12,0,1
						1700000000013,30,GET /api/studies/{id},Non HTTP response code: java.net.ConnectException,"Non HTTP response message: Connection refused, really",readers 1-2,text,false,"",0,0,2,2,http://127.0.0.1:8080/api/studies/8,0,0,30
						""");
		List<JtlSample> rows = new ArrayList<>();
		long n = JtlReader.read(jtl, rows::add);
		assertThat(n).isEqualTo(2);
		assertThat(rows.get(0)).isEqualTo(
				new JtlSample(1700000000000L, 12, "GET /api/studies/{id}", "200", "OK", true, "", 2, "readers 1-1"));
		assertThat(rows.get(1).success()).isFalse();
		assertThat(rows.get(1).errorType()).isEqualTo(
				"Non HTTP response code: java.net.ConnectException: Non HTTP response message: Connection refused, really");
	}

	@Test
	void rejectsAFileWithoutHeader() throws IOException {
		Path jtl = tmp.resolve("b.jtl");
		Files.writeString(jtl, "1700000000000,12,x,200,OK,t,text,true,,1,1,1,1,u,1,0,0\n");
		assertThatThrownBy(() -> JtlReader.read(jtl, s -> {
		})).isInstanceOf(IOException.class).hasMessageContaining("header");
	}

}
