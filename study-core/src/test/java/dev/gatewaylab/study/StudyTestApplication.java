package dev.gatewaylab.study;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * Boot configuration for this library's slice tests. No component scan: the production
 * wiring is {@link StudyAutoConfiguration}, and each test imports what it needs.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class StudyTestApplication {

}
