/** The package version, stored with every run; a test keeps it equal to package.json's. */
export const PAIDEIA_VERSION = '0.1.0';
