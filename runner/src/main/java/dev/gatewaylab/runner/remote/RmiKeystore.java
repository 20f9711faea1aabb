package dev.gatewaylab.runner.remote;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.UnrecoverableKeyException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The lab's RMI keystore: a private key and its self-signed certificate, one file on
 * every engine and on the runner. RMI runs over TLS with it ({@link RmiSockets}) and each
 * side requires the other's certificate, so only a holder of the file connects.
 * {@link #create} makes one with the JDK's keytool ({@code ./lab engine}, once per
 * checkout); {@link #load} reads and checks any keystore the JDK reads (the lab's PKCS12,
 * JMeter's {@code rmi_keystore.jks}).
 */
public final class RmiKeystore {

	/**
	 * Its name in a checkout's state folder ({@code .lab/}), where {@code ./lab engine}
	 * creates it and the runner looks for it.
	 */
	public static final String FILE_NAME = "rmi-keystore.p12";

	private static final Set<PosixFilePermission> OWNER = EnumSet.of(PosixFilePermission.OWNER_READ,
			PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

	private static final long KEYTOOL_TIMEOUT_S = 60;

	private final Path file;

	private final SSLContext context;

	private final List<String> warnings;

	private RmiKeystore(Path file, SSLContext context, List<String> warnings) {
		this.file = file;
		this.context = context;
		this.warnings = List.copyOf(warnings);
	}

	public Path file() {
		return file;
	}

	/** TLS with this keystore's key, trusting its certificates only. */
	public SSLContext context() {
		return context;
	}

	/** What is usable but unwise (the file readable by other users). */
	public List<String> warnings() {
		return warnings;
	}

	/**
	 * Reads and checks the keystore: a readable file, the password, a private key whose
	 * certificate is valid today. Throws {@link RmiSetupException} naming the file;
	 * {@code fixWhenMissing} is the fix printed when there is no such file.
	 */
	public static RmiKeystore load(Path file, String password, String fixWhenMissing) {
		Path f = file.toAbsolutePath().normalize();
		if (!Files.isRegularFile(f) || !Files.isReadable(f)) {
			throw new RmiSetupException(
					"RMI keystore " + f + " is not a readable file" + (Files.exists(f) ? "" : " (no such file)"),
					fixWhenMissing);
		}
		char[] pass = password.toCharArray();
		String unreadableFix = "its password must be in " + Rmi.PASSWORD_ENV + " (default changeit) and the file a "
				+ "keystore: copy the engine's keystore again, or delete it and start ./lab engine to create a new one";
		KeyStore store;
		try {
			store = KeyStore.getInstance(f.toFile(), pass);
		}
		catch (IOException | GeneralSecurityException e) {
			String why = e.getCause() instanceof UnrecoverableKeyException
					? "wrong password, or a damaged file (" + e.getMessage() + ")" : reason(e);
			throw new RmiSetupException("cannot read RMI keystore " + f + ": " + why, unreadableFix);
		}
		checkKey(store, f);
		try {
			KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			keys.init(store, pass);
			TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			// trusts the certificates of the keystore's own entries: the peers hold the
			// same file
			trust.init(store);
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
			return new RmiKeystore(f, context, permissionWarnings(f));
		}
		catch (UnrecoverableKeyException e) {
			throw new RmiSetupException(
					"the private key in RMI keystore " + f + " has another password than the " + "keystore",
					"give both the password in " + Rmi.PASSWORD_ENV + ", or use the keystore ./lab engine "
							+ "creates");
		}
		catch (GeneralSecurityException e) {
			throw new RmiSetupException("cannot use RMI keystore " + f + ": " + reason(e), unreadableFix);
		}
	}

	/** A private key entry whose certificate is valid now, else RmiSetupException. */
	private static void checkKey(KeyStore store, Path f) {
		String renew = "delete it and start ./lab engine to create a new one, then copy it to the runner again";
		try {
			boolean key = false;
			for (String alias : Collections.list(store.aliases())) {
				if (store.isKeyEntry(alias) && store.getCertificate(alias) instanceof X509Certificate cert) {
					key = true;
					try {
						cert.checkValidity();
					}
					catch (CertificateExpiredException e) {
						throw new RmiSetupException(
								"the certificate in RMI keystore " + f + " expired on " + cert.getNotAfter(), renew);
					}
					catch (CertificateNotYetValidException e) {
						throw new RmiSetupException("the certificate in RMI keystore " + f + " is not valid before "
								+ cert.getNotBefore() + " (this machine's clock?)", "set the clock right, or " + renew);
					}
				}
			}
			if (!key) {
				throw new RmiSetupException("RMI keystore " + f + " holds no private key with a certificate",
						"use the keystore ./lab engine creates (docs/remote.md)");
			}
		}
		catch (KeyStoreException e) {
			throw new RmiSetupException("cannot read RMI keystore " + f + ": " + reason(e), null);
		}
	}

	/**
	 * Creates a keystore at {@code file} with the JDK's keytool unless one is there; true
	 * when this call created it. Mode 0600; written whole or not at all (in a private
	 * folder beside it, then linked to its name, so a concurrent creation keeps the
	 * first).
	 */
	public static boolean create(Path file, String password) {
		Path target = file.toAbsolutePath().normalize();
		if (Files.exists(target)) {
			return false;
		}
		Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
		if (!Files.isExecutable(keytool)) {
			throw new RmiSetupException(
					"there is no keytool in " + keytool.getParent() + " to create the RMI keystore " + target,
					"run ./lab engine with a JDK that has one, or create the keystore as docs/remote.md "
							+ "shows and pass --rmi-keystore FILE");
		}
		Path dir = target.getParent();
		Path tmp = null;
		try {
			Files.createDirectories(dir);
			tmp = Files.createTempDirectory(dir, ".rmi-keystore-",
					PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
			Path made = tmp.resolve(target.getFileName());
			ProcessBuilder keytoolRun = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "rmi",
					"-keyalg", "EC", "-keysize", "256", "-validity", "3650", "-dname", "CN=gateway-lab rmi",
					"-keystore", made.toString(), "-storetype", "pkcs12", "-storepass:env", Rmi.PASSWORD_ENV)
				.redirectErrorStream(true);
			// the password through the environment: not on a command line other users can
			// read
			keytoolRun.environment().put(Rmi.PASSWORD_ENV, password);
			Process p = keytoolRun.start();
			p.getOutputStream().close();
			String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			if (!p.waitFor(KEYTOOL_TIMEOUT_S, TimeUnit.SECONDS) || p.exitValue() != 0 || !Files.isRegularFile(made)) {
				p.destroyForcibly();
				throw new RmiSetupException(
						"keytool could not create the RMI keystore " + target + ": " + output.replaceAll("\\s+", " "),
						"see the message; the password is " + Rmi.PASSWORD_ENV);
			}
			Files.setPosixFilePermissions(made,
					EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
			return link(made, target);
		}
		catch (IOException e) {
			throw new RmiSetupException("cannot create the RMI keystore " + target + ": " + reason(e),
					"check that " + dir + " is writable");
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new RmiSetupException("interrupted while creating the RMI keystore " + target, null);
		}
		finally {
			deleteTree(tmp);
		}
	}

	/**
	 * Gives {@code made} the name {@code target} unless that exists; true when it did.
	 */
	private static boolean link(Path made, Path target) throws IOException {
		try {
			Files.createLink(target, made);
			return true;
		}
		catch (FileAlreadyExistsException e) {
			return false;
		}
		catch (UnsupportedOperationException | IOException e) {
			// no hard links on this file system: a move, which fails too when the name
			// exists
			try {
				Files.move(made, target);
				return true;
			}
			catch (FileAlreadyExistsException again) {
				return false;
			}
		}
	}

	/**
	 * The one command that copies {@code file} from this machine, reached at
	 * {@code host}, into the current checkout's {@code .lab/} on another machine (the
	 * runner's), where the runner finds it.
	 */
	public static String copyCommand(Path file, String host) {
		String user = System.getProperty("user.name", "USER");
		String remoteHost = host.contains(":") ? "[" + host + "]" : host;
		return "mkdir -p .lab && scp -p " + user + "@" + remoteHost + ":" + quoted(file.toAbsolutePath().toString())
				+ " .lab/" + FILE_NAME;
	}

	private static String quoted(String s) {
		return s.matches("[A-Za-z0-9._/+-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
	}

	/**
	 * A warning when others than the owner may read the keystore (anyone who can read it
	 * can drive the engines).
	 */
	static List<String> permissionWarnings(Path file) {
		List<String> warnings = new ArrayList<>();
		try {
			Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
			Set<PosixFilePermission> others = new HashSet<>(perms);
			others.removeAll(OWNER);
			if (!others.isEmpty()) {
				warnings.add("RMI keystore " + file + " is open to other users of this machine ("
						+ PosixFilePermissions.toString(perms)
						+ "): whoever reads it can drive the engines — chmod 600 " + file);
			}
		}
		catch (IOException | UnsupportedOperationException e) {
			// not a POSIX file system: nothing to say
		}
		return warnings;
	}

	static String reason(Throwable e) {
		Throwable root = e;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String m = root.getMessage() != null ? root.getMessage() : e.getMessage();
		return (m == null ? root.getClass().getSimpleName() : m).replaceAll("\\s+", " ");
	}

	private static void deleteTree(Path dir) {
		if (dir == null) {
			return;
		}
		try (Stream<Path> files = Files.walk(dir)) {
			for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(p);
			}
		}
		catch (IOException e) {
			// a leftover private temporary folder in .lab/: harmless
		}
	}

}
