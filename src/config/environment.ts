/**
 * The process's environment: the one place outside the config schema that reads it, for the
 * config itself and for `${VAR}` substitution in MCP_CONFIG files.
 */
export const processEnvironment = (): NodeJS.ProcessEnv => process.env;
