package dev.gatewaylab.denylist;

import java.nio.charset.StandardCharsets;

/**
 * Bytes read as ISO-8859-1 characters, in place: lets the deny-list parser hand a slice
 * of its read buffer to {@link Ipv4#parse(CharSequence, int, int)} without copying it. A
 * byte outside ASCII reads as a character from 128 to 255, which no address contains.
 */
final class AsciiChars implements CharSequence {

	private final byte[] bytes;

	AsciiChars(byte[] bytes) {
		this.bytes = bytes;
	}

	@Override
	public int length() {
		return this.bytes.length;
	}

	@Override
	public char charAt(int index) {
		return (char) (this.bytes[index] & 0xFF);
	}

	@Override
	public CharSequence subSequence(int start, int end) {
		return new String(this.bytes, start, end - start, StandardCharsets.ISO_8859_1);
	}

	@Override
	public String toString() {
		return new String(this.bytes, StandardCharsets.ISO_8859_1);
	}

}
