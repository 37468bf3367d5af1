export { CONFIG_VARIABLES, ConfigError, loadConfig } from './config.js';
export type {
  Config,
  ConfigSource,
  ConfigVariable,
  CrawlConfig,
  DatabaseConfig,
  DeliveryProviderName,
  DeliveryRoute,
  RateLimitPolicy,
} from './config.js';
export { BUNDLED_CONTENT_DIR, PACKAGE_ROOT } from './paths.js';
export { checkDatabaseFile, checkDataDir, listenError, type ListenerVariables } from './start-up.js';
