package com.example.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class LeversGatewayApplication {

	public static void main(String[] args) {
		SpringApplication.run(LeversGatewayApplication.class, args);
	}

}
