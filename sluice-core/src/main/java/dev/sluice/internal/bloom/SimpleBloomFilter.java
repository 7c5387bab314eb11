package dev.sluice.internal.bloom;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** {@link BloomFilterType#SIMPLE}: one bit vector, serialized as is. */
final class SimpleBloomFilter implements BloomFilter {
  private final BitVector bits;

  SimpleBloomFilter(BitVector bits) {
    this.bits = bits;
  }

  @Override
  public void add(String key) {
    bits.add(key.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public boolean mightContain(String key) {
    return bits.mightContain(key.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String serialize() {
    ByteBuffer out = ByteBuffer.allocate(bits.serializedSize());
    bits.writeTo(out);
    return Base64.getEncoder().encodeToString(out.array());
  }

  @Override
  public BloomFilterType type() {
    return BloomFilterType.SIMPLE;
  }

  BitVector bits() {
    return bits;
  }

  static SimpleBloomFilter read(ByteBuffer in) {
    return new SimpleBloomFilter(BitVector.readFrom(in));
  }
}
