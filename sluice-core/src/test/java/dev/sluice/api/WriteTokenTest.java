package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WriteTokenTest {
  @Test
  void namesTheTaskAttemptAsHudiDoes() {
    assertEquals("3-0-0", WriteToken.of(3).text());
    assertTrue(WriteToken.of(3).local());
    WriteToken retried = new WriteToken(3, 12, 57);
    assertEquals("3-12-57", retried.text());
    assertFalse(retried.local());
  }

  @Test
  void refusesNegativeParts() {
    SluiceException e = assertThrows(SluiceException.class, () -> new WriteToken(1, -2, 0));
    assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
    assertTrue(e.getMessage().contains("1--2-0"), e.getMessage());
  }
}
