/* pn_commands.h - the pnsim subcommands; each takes its own argv (argv[0] is
 * the command name) and returns the process exit status. */
#ifndef PN_COMMANDS_H
#define PN_COMMANDS_H

int pn_cmd_run(int argc, char **argv);
int pn_cmd_export(int argc, char **argv);
int pn_cmd_devices(int argc, char **argv);
int pn_cmd_calibrate(int argc, char **argv);
int pn_cmd_bbv(int argc, char **argv);
int pn_cmd_sweep(int argc, char **argv);
int pn_cmd_reorder(int argc, char **argv);
int pn_cmd_regroup(int argc, char **argv);
int pn_cmd_probe(int argc, char **argv);
int pn_cmd_import(int argc, char **argv);
int pn_cmd_init(int argc, char **argv);
int pn_cmd_compare(int argc, char **argv);

#endif
