/**
 * Write markers, Hudi's direct markers: before a write creates or appends to a data file it creates an empty {@code
 * .hoodie/.temp/<instant>/<partition>/<file>.marker.<IOType>} ({@code Markers}), so that a failed write can be
 * rolled back by undoing exactly the files it touched; the markers go once the instant completes or is rolled back.
 */
package dev.sluice.internal.marker;
