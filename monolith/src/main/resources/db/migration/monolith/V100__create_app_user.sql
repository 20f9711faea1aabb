-- Login users of the monolith. V100+ keeps the monolith's migrations clear of study-core's V1..V99.
CREATE TABLE app_user (
    username VARCHAR(50)  NOT NULL PRIMARY KEY,
    password VARCHAR(100) NOT NULL,
    enabled  BOOLEAN      NOT NULL DEFAULT TRUE
);
