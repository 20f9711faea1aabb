-- study-service uses the database POSTGRES_DB creates (study); the monolith keeps its own data next to it.
CREATE DATABASE monolith OWNER lab;
