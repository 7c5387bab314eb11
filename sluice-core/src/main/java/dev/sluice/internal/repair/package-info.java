/**
 * Table repair ({@code sluice repair}, {@code Table.repair}): finds the damage Hudi's own repair commands deal with
 * and fixes what can be fixed without losing a committed row. {@code RepairPlanner} looks (a dry run changes nothing):
 * the table config against its backup, every instant file of the timeline, every block of every log file (decoded),
 * and every file no instant accounts for. Each {@code Finding} says what is wrong, what the repair does about it, and
 * carries the step that does it; {@code Repairer} runs the steps, copying every file it changes or replaces into
 * {@code .hoodie/.repair/<time>/} first. Sits above the timeline, log, fsview and rollback packages; used by
 * {@code service.TableActions}.
 */
package dev.sluice.internal.repair;
