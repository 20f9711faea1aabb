package dev.gatewaylab.runner.remote;

import java.nio.file.Path;

/**
 * Two RMI keystores made as ./lab engine makes them (keytool), once per JVM and kept in
 * target/ between test classes: a lab's, and another lab's.
 */
public final class TestKeystores {

	private static final Path DIR = Path.of("target", "test-rmi-keystores").toAbsolutePath();

	private TestKeystores() {
	}

	/** This lab's keystore. */
	public static synchronized Path ours() {
		return made("ours");
	}

	/** Another lab's keystore: another key, another certificate. */
	public static synchronized Path another() {
		return made("another");
	}

	private static Path made(String name) {
		Path file = DIR.resolve(name).resolve(RmiKeystore.FILE_NAME);
		RmiKeystore.create(file, Rmi.password());
		return file;
	}

}
