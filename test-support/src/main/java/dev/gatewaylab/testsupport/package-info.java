/**
 * Test support shared by the gateway, study-service and monolith tests.
 */
package dev.gatewaylab.testsupport;
